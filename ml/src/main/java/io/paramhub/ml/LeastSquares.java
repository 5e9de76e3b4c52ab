package io.paramhub.ml;

/** Closed-form linear least squares with a bias term, in double, for {@link LinearProblem}. */
final class LeastSquares {

    private LeastSquares() {}

    /** Solves the normal equations {@code (X̃ᵀX̃) θ = X̃ᵀy} with {@code X̃ = [X, 1]}; θ ends with the bias. */
    static double[] solve(final Dataset data) {
        final int d = data.features();
        final int m = d + 1;
        final float[] x = data.x();
        final float[] y = data.y();
        final double[][] a = new double[m][m + 1];
        final double[] row = new double[m];
        for (int i = 0; i < data.size(); i++) {
            for (int j = 0; j < d; j++) {
                row[j] = x[i * d + j];
            }
            row[d] = 1;
            for (int r = 0; r < m; r++) {
                for (int c = r; c < m; c++) {
                    a[r][c] += row[r] * row[c];
                }
                a[r][m] += row[r] * y[i];
            }
        }
        for (int r = 0; r < m; r++) {
            for (int c = 0; c < r; c++) {
                a[r][c] = a[c][r];
            }
        }
        return eliminate(a);
    }

    /** Gaussian elimination with partial pivoting on an augmented {@code m x (m+1)} matrix. */
    private static double[] eliminate(final double[][] a) {
        final int m = a.length;
        for (int col = 0; col < m; col++) {
            int pivot = col;
            for (int r = col + 1; r < m; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            if (Math.abs(a[pivot][col]) < 1e-12) {
                throw new IllegalArgumentException("normal equations are singular at column " + col);
            }
            final double[] swap = a[col];
            a[col] = a[pivot];
            a[pivot] = swap;
            for (int r = col + 1; r < m; r++) {
                final double factor = a[r][col] / a[col][col];
                for (int c = col; c <= m; c++) {
                    a[r][c] -= factor * a[col][c];
                }
            }
        }
        final double[] solution = new double[m];
        for (int r = m - 1; r >= 0; r--) {
            double sum = a[r][m];
            for (int c = r + 1; c < m; c++) {
                sum -= a[r][c] * solution[c];
            }
            solution[r] = sum / a[r][r];
        }
        return solution;
    }

    /** The RMSE of {@code [w, b]} on a data set, in double. */
    static double rmse(final Dataset data, final double[] parameters) {
        final int d = data.features();
        final float[] x = data.x();
        final float[] y = data.y();
        double sum = 0;
        for (int i = 0; i < data.size(); i++) {
            double prediction = parameters[d];
            for (int j = 0; j < d; j++) {
                prediction += parameters[j] * x[i * d + j];
            }
            final double error = prediction - y[i];
            sum += error * error;
        }
        return Math.sqrt(sum / data.size());
    }
}
