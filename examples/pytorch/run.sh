#!/usr/bin/env bash
# Trains model.py's CNN on Fashion-MNIST with N Python workers through ParamHub (or, with --ddp, under PyTorch
# DDP on the same samples) and prints, as its last line, one JSON object: wall_seconds, final_test_accuracy, ...
#
#   examples/pytorch/run.sh --workers 4 --epochs 2 [--batch 128] [--lr 0.005] [--lr-schedule cosine|constant]
#       [--seed 7] [--network lenet|mnist] [--slow-worker W:F] [--ddp] [--dashboard]
#       [--shards S] [--gradient-encoding float32|bfloat16] [--pipeline-depth D] [--no-host-sum] (ParamHub only)
#       [--bootstrap-servers B --registry-url R [--orchestrator-url U]]
#
# Without --bootstrap-servers it builds the jars if they are missing or older than the sources, starts
# `paramhub up` (a broker and a schema registry) on free ports, an aggregator and an orchestrator, and stops all
# of them at the end, on failure and on Ctrl-C. With --bootstrap-servers/--registry-url it submits the job to
# that cluster and starts only the workers. --ddp starts no ParamHub at all. Under ParamHub the workers, all on
# this host, sum their gradients here (--host-group 0,...,N-1, protocol 2) and worker 0 publishes the sum, one
# record a shard; --no-host-sum makes each worker publish its own (protocol 1). See README.md.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PARAMHUB_PYTHON:-/usr/bin/python3}"

workers=4 epochs=2 batch=128 lr=0.005 schedule=cosine seed=7 network=lenet shards="" encoding=float32 depth=0
slow_worker="" bootstrap="" registry="" orchestrator_url="" ddp="" dashboard="" no_host_sum=""
usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) workers="$2"; shift 2 ;;
    --epochs) epochs="$2"; shift 2 ;;
    --batch) batch="$2"; shift 2 ;;
    --lr) lr="$2"; shift 2 ;;
    --lr-schedule) schedule="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --network) network="$2"; shift 2 ;;
    --shards) shards="$2"; shift 2 ;;
    --gradient-encoding) encoding="$2"; shift 2 ;;
    --pipeline-depth) depth="$2"; shift 2 ;;
    --slow-worker) slow_worker="$2"; shift 2 ;;
    --bootstrap-servers) bootstrap="$2"; shift 2 ;;
    --registry-url) registry="$2"; shift 2 ;;
    --orchestrator-url) orchestrator_url="$2"; shift 2 ;;
    --ddp) ddp=yes; shift ;;
    --dashboard) dashboard=yes; shift ;;
    --no-host-sum) no_host_sum=yes; shift ;;
    -h|--help) usage ;;
    *) echo "run.sh: unknown option $1" >&2; usage ;;
  esac
done
if { [ -n "$bootstrap" ] && [ -z "$registry" ]; } || { [ -z "$bootstrap" ] && [ -n "$registry" ]; }; then
  echo "run.sh: give both --bootstrap-servers and --registry-url, or neither" >&2; exit 2
fi
slow_index=-1 slow_factor=1
if [ -n "$slow_worker" ]; then
  slow_index="${slow_worker%%:*}" slow_factor="${slow_worker#*:}"
  [[ "$slow_index" =~ ^[0-9]+$ ]] && [ "$slow_index" -lt "$workers" ] \
    || { echo "run.sh: --slow-worker W:F needs 0 <= W < $workers" >&2; exit 2; }
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/paramhub-pytorch.XXXXXX")"
started=()      # "name pid" of every process this script started, in start order
summary=""      # the last line, printed once everything has stopped
say() { echo "run.sh: $*" >&2; }

stop_all() {
  local i name pid waited
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do
    read -r name pid <<<"${started[$i]}"
    kill -0 "$pid" 2>/dev/null || continue
    kill -TERM "$pid" 2>/dev/null || true
    for ((waited = 0; waited < 300; waited++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      say "$name (pid $pid) did not stop within 30 s of SIGTERM: killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  wait 2>/dev/null || true
}
on_exit() {
  local status=$?
  trap - EXIT INT TERM
  stop_all
  if [ "$status" -ne 0 ]; then
    say "failed (exit $status); logs in $work"
    for log in "$work"/*.log; do
      [ -f "$log" ] && { echo "--- tail of $log" >&2; tail -n 15 "$log" >&2; }
    done
    exit "$status"
  fi
  rm -rf "$work"
  [ -n "$summary" ] && echo "$summary"
  exit 0
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start() { # start NAME LOG COMMAND...: runs COMMAND in the background, remembered for stop_all
  local name="$1" log="$2"
  shift 2
  if [ "$log" = - ]; then "$@" & else "$@" >"$log" 2>&1 & fi
  started+=("$name $!")
}
free_ports() { # free_ports N: N ports nobody listens on now
  "$python" -c 'import socket,sys
socks=[socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$1"
}
await_http() { # await_http URL WHAT SECONDS
  local i
  for ((i = 0; i < $3 * 5; i++)); do
    curl -sf -o /dev/null "$1" && return 0
    for entry in "${started[@]}"; do
      read -r name pid <<<"$entry"
      kill -0 "$pid" 2>/dev/null || { say "$name exited early"; return 1; }
    done
    sleep 0.2
  done
  say "$2 did not answer $1 within $3 s"; return 1
}
cpu_ticks() { # "name user system" of the ParamHub processes this script started: CPU clock ticks so far
  local entry name pid
  for entry in "${started[@]}"; do
    read -r name pid <<<"$entry"
    case "$name" in
      paramhub-up|aggregator|orchestrator)
        [ -r "/proc/$pid/stat" ] && awk -v name="$name" '{ print name, $14, $15 }' "/proc/$pid/stat" ;;
    esac
  done
}
await_ready() { # waits until every worker is ready to train (train.py's RESULT.ready files), or one has failed
  local pid
  until [ "$(find "$work" -name '*.ready' | wc -l)" -ge "$workers" ]; do
    for pid in "$@"; do
      kill -0 "$pid" 2>/dev/null || await_workers "$pid"
    done
    sleep 0.2
  done
}
await_workers() { # waits for every worker process; fails as soon as one fails
  local pid status=0
  for pid in "$@"; do
    wait "$pid" || status=$?
    [ "$status" -eq 0 ] || { say "a worker failed (exit $status)"; return "$status"; }
  done
}

"$root/scripts/install-deps" --no-browser  # the Fashion-MNIST IDX files (Debian's dataset-fashion-mnist)

result_files=()
for ((w = 0; w < workers; w++)); do result_files+=("$work/result-$w.json"); done
slow_args() { [ "$1" -eq "$slow_index" ] && echo "--slow $slow_factor" || true; }

if [ -n "$ddp" ]; then
  read -r master_port < <(free_ports 1)
  say "DDP: $workers processes (gloo, one thread each), $epochs epochs, batch $batch, Adam lr $lr ($schedule)"
  pids=()
  for ((w = 0; w < workers; w++)); do
    # shellcheck disable=SC2046
    start "ddp-$w" - "$python" "$here/train.py" ddp --master-port "$master_port" --index "$w" --workers "$workers" \
      --epochs "$epochs" --batch "$batch" --lr "$lr" --lr-schedule "$schedule" --seed "$seed" --network "$network" \
      --result "$work/result-$w.json" $(slow_args "$w")
    pids+=("$!")
  done
  await_workers "${pids[@]}"
  summary="$("$python" "$here/summary.py" --mode ddp --workers "$workers" --network "$network" --lr "$lr" \
    --lr-schedule "$schedule" --seed "$seed" ${slow_worker:+--slow-worker "$slow_worker"} "${result_files[@]}")"
  exit 0
fi

# --- ParamHub: the jars, a cluster unless given one, the job, the workers
jars=("$root/worker-app/target/paramhub-worker.jar")
[ -n "$bootstrap" ] || jars+=("$root/cli/target/paramhub-cli-0.1.0-SNAPSHOT.jar" "$root/cli/target/classpath.txt"
  "$root/aggregator-app/target/paramhub-aggregator.jar" "$root/orchestrator-app/target/paramhub-orchestrator.jar")
stale() {
  local jar
  for jar in "${jars[@]}"; do
    [ -f "$jar" ] || return 0
    [ -z "$(find "$root/pom.xml" "$root"/*/pom.xml "$root"/*/src/main -type f ! -name '.*' -newer "$jar" \
      -print -quit 2>/dev/null)" ] || return 0
  done
  return 1
}
if stale; then
  say "building ParamHub (mvn package -DskipTests)..."
  (cd "$root" && { mvn -B -q -o -DskipTests -Dcheckstyle.skip=true -Dspotless.check.skip=true package \
    || mvn -B -q -DskipTests -Dcheckstyle.skip=true -Dspotless.check.skip=true package; }) >&2
  touch "${jars[@]}"  # the jar plugin leaves a jar alone when its module did not change
fi

# Java 25 where there is one, with the options that only silence its warnings (scripts/java-runtime, as ./paramhub)
read -r _ _ java < <("$root/scripts/java-runtime")
read -r -a java_opts < <("$root/scripts/java-runtime" --options; echo)

if [ -z "$bootstrap" ]; then
  read -r kafka_port controller_port registry_port aggregator_port orchestrator_port < <(free_ports 5)
  bootstrap="127.0.0.1:$kafka_port" registry="http://127.0.0.1:$registry_port"
  orchestrator_url="http://127.0.0.1:$orchestrator_port"
  say "starting paramhub up (broker $bootstrap, registry $registry), an aggregator and an orchestrator; logs in $work"
  start "paramhub-up" "$work/up.log" "$java" "${java_opts[@]}" ${PARAMHUB_JAVA_OPTS:--Xmx2g} -cp "$root/cli/target/paramhub-cli-0.1.0-SNAPSHOT.jar:$(cat "$root/cli/target/classpath.txt")" \
    io.paramhub.cli.ParamHubCli up --port "$kafka_port" --controller-port "$controller_port" \
    --registry-port "$registry_port" --data-dir "$work/kafka"
  await_http "$registry/subjects" "the schema registry" 120
  start "aggregator" "$work/aggregator.log" "$java" "${java_opts[@]}" -jar "$root/aggregator-app/target/paramhub-aggregator.jar" \
    --bootstrap-servers "$bootstrap" --registry-url "$registry" --state-dir "$work/aggregator-state" \
    --http-port "$aggregator_port"
  start "orchestrator" "$work/orchestrator.log" "$java" "${java_opts[@]}" -jar "$root/orchestrator-app/target/paramhub-orchestrator.jar" \
    --bootstrap-servers "$bootstrap" --registry-url "$registry" --state-dir "$work/orchestrator-state" \
    --http-port "$orchestrator_port" $([ -n "$dashboard" ] && echo --dashboard || echo --no-dashboard)
  await_http "http://127.0.0.1:$aggregator_port/health/ready" "the aggregator" 120
  await_http "$orchestrator_url/health/ready" "the orchestrator" 120
fi
job="pytorch-$(date +%Y%m%d-%H%M%S)-$$"
[ -z "$dashboard" ] || [ -z "$orchestrator_url" ] || say "dashboard: $orchestrator_url/dashboard (job $job)"

"$python" "$here/train.py" export --network "$network" --seed "$seed" --out "$work/model.json" >/dev/null
"$java" "${java_opts[@]}" -cp "$root/worker-app/target/paramhub-worker.jar" io.paramhub.worker.SubmitJobApp \
  --bootstrap-servers "$bootstrap" --registry-url "$registry" --job "$job" --workers "$workers" \
  --external-model "$work/model.json" --dataset fashion-mnist --batch "$batch" --epochs "$epochs" \
  --optimizer adam --lr "$lr" --lr-schedule "$schedule" --seed "$seed" ${shards:+--shards "$shards"} \
  --gradient-encoding "$encoding" --pipeline-depth "$depth" >&2

host_group=""  # every worker of this host in one group, which sums its gradients before publishing (protocol 2)
if [ -z "${no_host_sum:-}" ] && [ "$workers" -gt 1 ]; then
  host_group="$(seq -s , 0 $((workers - 1)))"
fi
pids=()
for ((w = 0; w < workers; w++)); do
  # shellcheck disable=SC2046
  start "worker-$w" - "$python" "$here/train.py" paramhub --bootstrap-servers "$bootstrap" --registry-url "$registry" \
    --job "$job" --index "$w" --workers "$workers" --network "$network" --seed "$seed" \
    --result "$work/result-$w.json" ${host_group:+--host-group "$host_group"} $(slow_args "$w")
  pids+=("$!")
done
if [ -n "$orchestrator_url" ]; then
  # the orchestrator's view of the workers (speeds, shares), as it stands at the end of training
  start "orchestrator-poll" - bash -c 'while sleep 2; do
      curl -sf "$1/jobs/$2/workers" -o "$3.tmp" && mv "$3.tmp" "$3"; done' poll "$orchestrator_url" "$job" \
    "$work/orchestrator-workers.json"
fi
await_ready "${pids[@]}"
cpu_ticks >"$work/cpu-start"  # the cluster's CPU while the workers train: from all ready to the end
await_workers "${pids[@]}"
cpu_ticks >"$work/cpu-end"
if [ -n "$orchestrator_url" ]; then
  curl -sf "$orchestrator_url/jobs/$job/workers" -o "$work/orchestrator-workers.json.tmp" \
    && mv "$work/orchestrator-workers.json.tmp" "$work/orchestrator-workers.json" || true
fi
if [ -n "$dashboard" ] && [ -t 0 ]; then
  read -r -p "run.sh: training done; the dashboard stays up until you press Enter " _ || true
fi
summary="$("$python" "$here/summary.py" --mode paramhub --workers "$workers" --network "$network" --lr "$lr" \
  --lr-schedule "$schedule" --seed "$seed" --job "$job" ${slow_worker:+--slow-worker "$slow_worker"} \
  --gradient-encoding "$encoding" --pipeline-depth "$depth" ${host_group:+--host-sum} \
  --orchestrator "$work/orchestrator-workers.json" --cpu-start "$work/cpu-start" --cpu-end "$work/cpu-end" \
  "${result_files[@]}")"
