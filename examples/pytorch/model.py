"""The example's network: a LeNet-style CNN for 28x28 grey images, 10 classes (about 1.2 M parameters)."""
import torch
from torch import nn
import torch.nn.functional as F


class LeNet(nn.Module):
    """conv 1->16 5x5 (pad 2), max-pool 2, conv 16->32 5x5 (pad 2), max-pool 2, fc 1568->720, fc 720->10."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 5, padding=2)
        self.conv2 = nn.Conv2d(16, 32, 5, padding=2)
        self.fc1 = nn.Linear(32 * 7 * 7, 720)
        self.fc2 = nn.Linear(720, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        return self.fc2(x)


class MnistNet(nn.Module):
    """PyTorch's MNIST example network (examples/mnist/main.py): 1,199,882 parameters."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        x = self.dropout2(x)
        return self.fc2(x)


NETWORKS = {"lenet": LeNet, "mnist": MnistNet}


def create(name="lenet", seed=7):
    """The network, its parameters drawn from torch's default initialisation under torch.manual_seed(seed)."""
    torch.manual_seed(seed)
    return NETWORKS[name]()
