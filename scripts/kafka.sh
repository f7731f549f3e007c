#!/usr/bin/env bash
# Local single-node Apache Kafka (KRaft) broker for Vigil development and CI.
#
#   bash scripts/kafka.sh start    fetch Kafka if needed, start the broker, wait until it serves
#   bash scripts/kafka.sh stop     stop the broker this script started (SIGTERM, then SIGKILL)
#   bash scripts/kafka.sh status   exit 0 if a broker serves on the port, else 1
#   bash scripts/kafka.sh wait     wait (bounded) until a broker serves on the port
#   bash scripts/kafka.sh topics [TopicCommand args...]
#                                  run Kafka's topic CLI against the broker, e.g.
#                                  topics --create --topic vigil.audit --partitions 3
#   bash scripts/kafka.sh client-env
#                                  print the settings a Vigil service needs for this broker
#                                  (KAFKA_BROKERS, and with a SASL_SSL listener the KAFKA_SSL_*
#                                  and KAFKA_SASL_* variables), one VAR=value per line
#
# Kafka comes from Maven Central through `mvn` (scripts/kafka/pom.xml for 3.9, pom-4.xml for
# 4.x); no other download. Everything lives under the cache dir:
#   ${VIGIL_KAFKA_HOME:-$HOME/.cache/vigil-kafka}/libs[-4]          jars (fetched once)
#   ${VIGIL_KAFKA_HOME:-$HOME/.cache/vigil-kafka}/broker[-4]-<port>/ config, data, logs, pid, tls
#
# Environment:
#   KAFKA_VERSION       3 (default: Kafka 3.9) or 4 (Kafka 4.x); each has its own jars and data
#   KAFKA_PORT          PLAINTEXT port (default 9092); the controller uses KAFKA_PORT+1
#   KAFKA_CONTROLLER_PORT
#                       the KRaft controller's port (default KAFKA_PORT+1)
#   KAFKA_ADVERTISED_PORT
#                       the PLAINTEXT port the broker tells clients to connect to (default
#                       KAFKA_PORT): a relay on this port forwarding to KAFKA_PORT then stays between
#                       every client and the broker (the fault suite cuts it to make the broker
#                       unreachable). The relay must run before `start`, which checks readiness
#                       through it.
#   KAFKA_BROKER_DIR    the broker's folder: config, data, logs, pid, tls (default
#                       <cache dir>/broker[-4]-<port>); a second broker for tests gets its own
#   KAFKA_SASL_SSL_PORT also open a SASL_SSL listener on this port (TLS with a CA made for this
#                       broker; SASL PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 for the user
#                       KAFKA_SASL_USERNAME, default "vigil", with a generated password);
#                       `client-env` prints what a client needs
#   VIGIL_KAFKA_HOME    cache dir (default $HOME/.cache/vigil-kafka)
#   KAFKA_WAIT_SECS     readiness timeout for start/wait (default 90)
#   KAFKA_STOP_SECS     grace period before SIGKILL on stop (default 30)
#   KAFKA_HEAP_OPTS     broker heap (default "-Xms256m -Xmx512m")
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly SCRIPT_DIR
readonly ASSETS_DIR="$SCRIPT_DIR/kafka"
case "${KAFKA_VERSION:-3}" in
  3 | 3.9) readonly VARIANT="" POM="$ASSETS_DIR/pom.xml" CONFIG_COMMAND=kafka.admin.ConfigCommand ;;
  4) readonly VARIANT="-4" POM="$ASSETS_DIR/pom-4.xml" CONFIG_COMMAND=org.apache.kafka.tools.ConfigCommand ;;
  *) printf 'kafka: error: KAFKA_VERSION must be 3 or 4 (got %s)\n' "${KAFKA_VERSION}" >&2; exit 1 ;;
esac
readonly TEMPLATE="$ASSETS_DIR/server.properties.template"

readonly HOST=127.0.0.1
PORT="${KAFKA_PORT:-9092}"
readonly KHOME="${VIGIL_KAFKA_HOME:-${HOME:-/tmp}/.cache/vigil-kafka}"
readonly LIBS="$KHOME/libs$VARIANT"
readonly WAIT_SECS="${KAFKA_WAIT_SECS:-90}"
readonly STOP_SECS="${KAFKA_STOP_SECS:-30}"
readonly HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
readonly DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.7.1"

log() { printf 'kafka: %s\n' "$*"; }
err() { printf 'kafka: %s\n' "$*" >&2; }
die() { err "error: $*"; exit 1; }

usage() {
  cat >&2 <<EOF
usage: bash scripts/kafka.sh start|stop|status|wait|topics [args...]|client-env
  broker: $HOST:\${KAFKA_PORT:-9092}   cache: \${VIGIL_KAFKA_HOME:-\$HOME/.cache/vigil-kafka}
EOF
  exit 2
}

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }
if ! is_uint "$PORT" || ((10#$PORT < 1 || 10#$PORT > 65534)); then die "KAFKA_PORT must be a port number below 65535 (got '$PORT')"; fi
PORT=$((10#$PORT))
readonly PORT
is_uint "$WAIT_SECS" || die "KAFKA_WAIT_SECS must be a whole number of seconds (got '$WAIT_SECS')"
is_uint "$STOP_SECS" || die "KAFKA_STOP_SECS must be a whole number of seconds (got '$STOP_SECS')"
port_var() { # port_var <name> <value>: a port number, or die
  if ! is_uint "$2" || ((10#$2 < 1 || 10#$2 > 65535)); then die "$1 must be a port number (got '$2')"; fi
  printf '%d' "$((10#$2))"
}
CONTROLLER_PORT="$(port_var KAFKA_CONTROLLER_PORT "${KAFKA_CONTROLLER_PORT:-$((PORT + 1))}")"
((CONTROLLER_PORT != PORT)) || die "KAFKA_CONTROLLER_PORT must differ from KAFKA_PORT"
readonly CONTROLLER_PORT
ADVERTISED_PORT="$(port_var KAFKA_ADVERTISED_PORT "${KAFKA_ADVERTISED_PORT:-$PORT}")"
readonly ADVERTISED_PORT
SASL_SSL_PORT="${KAFKA_SASL_SSL_PORT:-}"
if [[ -n "$SASL_SSL_PORT" ]]; then
  if ! is_uint "$SASL_SSL_PORT" || ((10#$SASL_SSL_PORT < 1 || 10#$SASL_SSL_PORT > 65535)); then die "KAFKA_SASL_SSL_PORT must be a port number (got '$SASL_SSL_PORT')"; fi
  SASL_SSL_PORT=$((10#$SASL_SSL_PORT))
  ((SASL_SSL_PORT != PORT && SASL_SSL_PORT != CONTROLLER_PORT)) || die "KAFKA_SASL_SSL_PORT must differ from KAFKA_PORT and the controller's port"
fi
readonly SASL_SSL_PORT
readonly SASL_USER="${KAFKA_SASL_USERNAME:-vigil}"
[[ "$SASL_USER" =~ ^[A-Za-z0-9._-]+$ ]] || die "KAFKA_SASL_USERNAME may hold letters, digits, '.', '_' and '-' only"

readonly BROKER_DIR="${KAFKA_BROKER_DIR:-$KHOME/broker$VARIANT-$PORT}"
readonly TLS_DIR="$BROKER_DIR/tls"
readonly DATA_DIR="$BROKER_DIR/data"
readonly LOG_DIR="$BROKER_DIR/logs"
readonly SERVER_LOG="$LOG_DIR/server.log"   # log4j, WARN and up (+ start/stop lines)
readonly STDOUT_LOG="$LOG_DIR/kafka.out"    # JVM stdout/stderr
readonly PID_FILE="$BROKER_DIR/kafka.pid"
readonly PROPS="$BROKER_DIR/server.properties"
readonly BROKER_LOG4J="$BROKER_DIR/log4j.properties"
readonly TOOLS_LOG4J="$BROKER_DIR/tools-log4j.properties"
readonly ADMIN_PROPS="$BROKER_DIR/admin.properties"
readonly CLUSTER_ID_FILE="$BROKER_DIR/cluster.id"

# JVM flags for the short-lived CLI tools: start fast, stay small.
readonly TOOL_JVM=(-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true)

need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found on PATH${2:+ ($2)}"; }

# ---------------------------------------------------------------- fetching --

pom_stamp() { sha256sum "$POM" | cut -c1-16; }

libs_ready() {
  [[ -f "$LIBS/.complete" ]] && [[ "$(cat "$LIBS/.complete")" == "$(pom_stamp)" ]] \
    && compgen -G "$LIBS/kafka_2.13-*.jar" >/dev/null
}

ensure_libs() {
  [[ -f "$POM" ]] || die "missing $POM"
  need java "Java 17+ is required"
  if libs_ready; then return 0; fi
  need mvn "Maven is required to fetch Kafka from Maven Central"
  mkdir -p "$KHOME"
  # One fetch at a time per cache dir (parallel `start`s on other ports).
  exec 8>"$KHOME/.lock-fetch"
  flock -w 900 8 || die "could not get the lock $KHOME/.lock-fetch"
  if libs_ready; then exec 8>&-; return 0; fi
  log "fetching Kafka jars from Maven Central into $LIBS (one-time)..."
  local tmp="$KHOME/.libs.tmp.$$" mvn_log="$KHOME/.mvn-fetch.log" t0=$SECONDS
  rm -rf "$tmp"
  # -B/-q/no colour: CI-friendly; output kept in a log and shown only on failure.
  if ! mvn -B -q -Dstyle.color=never -f "$POM" \
      "$DEP_PLUGIN:copy-dependencies" -DoutputDirectory="$tmp" \
      </dev/null >"$mvn_log" 2>&1; then
    tail -n 40 "$mvn_log" | sed -e 's/\x1b\[[0-9;]*m//g' -e 's/^/kafka:   mvn| /' >&2
    rm -rf "$tmp"
    die "mvn could not fetch Kafka (full log: $mvn_log)"
  fi
  compgen -G "$tmp/kafka_2.13-*.jar" >/dev/null || { rm -rf "$tmp"; die "mvn ran but no kafka_2.13 jar was copied"; }
  pom_stamp >"$tmp/.complete"
  rm -rf "$LIBS"
  mv "$tmp" "$LIBS"
  exec 8>&-
  log "fetched $(find "$LIBS" -name '*.jar' | wc -l) jars ($(du -sh "$LIBS" | cut -f1)) in $((SECONDS - t0))s"
}

kafka_version() {
  local jar
  jar="$(compgen -G "$LIBS/kafka_2.13-*.jar" | head -n1)"
  jar="${jar##*/kafka_2.13-}"
  printf '%s' "${jar%.jar}"
}

# ------------------------------------------------------------------ config --

render_config() {
  mkdir -p "$DATA_DIR" "$LOG_DIR"
  [[ -f "$TEMPLATE" ]] || die "missing $TEMPLATE"
  local tpl
  tpl="$(<"$TEMPLATE")"
  # Replacements are quoted: bash 5.2's patsub_replacement would otherwise
  # turn a '&' in the path into the matched text.
  tpl="${tpl//@HOST@/"$HOST"}"
  tpl="${tpl//@CONTROLLER_PORT@/"$CONTROLLER_PORT"}"
  tpl="${tpl//@ADVERTISED_PORT@/"$ADVERTISED_PORT"}"
  tpl="${tpl//@PORT@/"$PORT"}"
  tpl="${tpl//@LOG_DIRS@/"$DATA_DIR"}"
  if [[ -n "$SASL_SSL_PORT" ]]; then
    ensure_tls
    local password store_password
    password="$(<"$TLS_DIR/sasl.password")"
    store_password="$(<"$TLS_DIR/keystore.password")"
    tpl="${tpl//"listeners=PLAINTEXT://$HOST:$PORT,"/"listeners=PLAINTEXT://$HOST:$PORT,SASL_SSL://$HOST:$SASL_SSL_PORT,"}"
    tpl="${tpl//"advertised.listeners=PLAINTEXT://$HOST:$ADVERTISED_PORT"/"advertised.listeners=PLAINTEXT://$HOST:$ADVERTISED_PORT,SASL_SSL://$HOST:$SASL_SSL_PORT"}"
    tpl="${tpl//"PLAINTEXT:PLAINTEXT"/"PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL"}"
    tpl+=$'\n'"# SASL_SSL listener (KAFKA_SASL_SSL_PORT): TLS with the broker's own CA ($TLS_DIR/ca.pem)"
    tpl+=$'\n'"sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"
    tpl+=$'\n'"listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$SASL_USER=\"$password\";"
    tpl+=$'\n'"listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;"
    tpl+=$'\n'"listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;"
    tpl+=$'\n'"ssl.keystore.type=PKCS12"
    tpl+=$'\n'"ssl.keystore.location=$TLS_DIR/broker.p12"
    tpl+=$'\n'"ssl.keystore.password=$store_password"
    tpl+=$'\n'"ssl.key.password=$store_password"
    tpl+=$'\n'"ssl.client.auth=none"
  fi
  printf '%s\n' "$tpl" >"$PROPS.tmp" && chmod 600 "$PROPS.tmp" && mv "$PROPS.tmp" "$PROPS"

  if [[ -n "$VARIANT" ]]; then
    render_log4j2
  else
  cat >"$BROKER_LOG4J" <<EOF
# Generated by scripts/kafka.sh: broker logs WARN and up to a rolling file.
log4j.rootLogger=WARN, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$SERVER_LOG
log4j.appender.file.MaxFileSize=10MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
# Keep the "Kafka Server started" / shutdown lines.
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.logger.kafka.Kafka\$=INFO
EOF

  cat >"$TOOLS_LOG4J" <<'EOF'
# Generated by scripts/kafka.sh: CLI tools log WARN and up to stderr.
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
  fi

  # Readiness probes must fail fast instead of retrying for a minute.
  cat >"$ADMIN_PROPS" <<'EOF'
request.timeout.ms=5000
default.api.timeout.ms=8000
socket.connection.setup.timeout.ms=2000
socket.connection.setup.timeout.max.ms=3000
EOF
}

# Kafka 4.x logs with log4j2: the same levels and files in its properties format.
render_log4j2() {
  cat >"$BROKER_LOG4J" <<EOF
# Generated by scripts/kafka.sh: broker logs WARN and up to a rolling file.
status = warn
appender.file.type = RollingFile
appender.file.name = file
appender.file.fileName = $SERVER_LOG
appender.file.filePattern = $SERVER_LOG.%i
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
appender.file.policies.type = Policies
appender.file.policies.size.type = SizeBasedTriggeringPolicy
appender.file.policies.size.size = 10MB
appender.file.strategy.type = DefaultRolloverStrategy
appender.file.strategy.max = 2
rootLogger.level = warn
rootLogger.appenderRef.file.ref = file
logger.raft.name = kafka.server.KafkaRaftServer
logger.raft.level = info
EOF
  cat >"$TOOLS_LOG4J" <<'EOF'
# Generated by scripts/kafka.sh: CLI tools log WARN and up to stderr.
status = warn
appender.stderr.type = Console
appender.stderr.name = stderr
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = stderr
EOF
}

# -Dlog4j.configuration (3.9, reload4j) or -Dlog4j2.configurationFile (4.x, log4j2).
log_flag() { # log_flag <file>
  if [[ -n "$VARIANT" ]]; then printf -- '-Dlog4j2.configurationFile=%s' "$1"; else printf -- '-Dlog4j.configuration=file:%s' "$1"; fi
}

# TLS material and SASL credentials of the SASL_SSL listener, made once per broker folder with
# openssl (a CA of its own, a broker certificate for 127.0.0.1/localhost) and kept 0600.
ensure_tls() {
  [[ -s "$TLS_DIR/broker.p12" && -s "$TLS_DIR/ca.pem" && -s "$TLS_DIR/sasl.password" ]] && return 0
  need openssl "openssl makes the SASL_SSL listener's certificates"
  mkdir -p "$TLS_DIR"
  chmod 700 "$TLS_DIR"
  local out
  out="$(
    set -e
    cd "$TLS_DIR"
    umask 077
    openssl rand -hex 16 >keystore.password
    openssl rand -hex 24 >sasl.password
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 825 -subj "/CN=Vigil local Kafka CA" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>&1
    openssl req -newkey rsa:2048 -nodes -keyout broker.key -out broker.csr -subj "/CN=localhost" 2>&1
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >broker.ext
    openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out broker.pem -days 825 -extfile broker.ext 2>&1
    openssl pkcs12 -export -in broker.pem -inkey broker.key -certfile ca.pem -name broker -out broker.p12 \
      -passout "pass:$(<keystore.password)" 2>&1
    rm -f broker.csr broker.ext ca.srl
  )" || { printf '%s\n' "$out" | sed 's/^/kafka:   /' >&2; rm -rf "$TLS_DIR"; die "openssl could not make the listener's certificates"; }
  chmod 644 "$TLS_DIR/ca.pem"
  log "made a CA and a broker certificate for the SASL_SSL listener in $TLS_DIR"
}

# SCRAM credentials live in the cluster metadata: set (or reset) them once the broker serves.
ensure_scram_user() {
  [[ -n "$SASL_SSL_PORT" ]] || return 0
  local password out mechanism
  password="$(<"$TLS_DIR/sasl.password")"
  # One mechanism per request: the broker refuses two changes of one user's credentials in one.
  for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do
    if ! out="$(tool "$CONFIG_COMMAND" --bootstrap-server "$HOST:$PORT" --command-config "$ADMIN_PROPS" --alter \
        --add-config "$mechanism=[iterations=8192,password=$password]" \
        --entity-type users --entity-name "$SASL_USER" 2>&1)"; then
      printf '%s\n' "$out" | sed "s/$password/***/g; s/^/kafka:   /" | tail -n 5 >&2
      die "could not set the $mechanism credentials of the user $SASL_USER"
    fi
  done
  log "SASL_SSL listener on $HOST:$SASL_SSL_PORT for user $SASL_USER (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512); settings: bash scripts/kafka.sh client-env"
}

tool() { # tool <main class> [args...]
  java "${TOOL_JVM[@]}" "$(log_flag "$TOOLS_LOG4J")" -cp "$LIBS/*" "$@" </dev/null
}

format_storage() {
  local id
  if [[ -s "$CLUSTER_ID_FILE" ]]; then
    id="$(<"$CLUSTER_ID_FILE")"
  else
    id="$(tool kafka.tools.StorageTool random-uuid | tail -n1 | tr -d '[:space:]')"
    [[ -n "$id" ]] || die "StorageTool random-uuid returned nothing"
    printf '%s\n' "$id" >"$CLUSTER_ID_FILE"
  fi
  if [[ -f "$DATA_DIR/meta.properties" ]]; then
    return 0 # already formatted: reuse the data dir as is
  fi
  log "formatting storage in $DATA_DIR (cluster id $id)"
  local out
  if ! out="$(tool kafka.tools.StorageTool format -t "$id" -c "$PROPS" --ignore-formatted 2>&1)"; then
    printf '%s\n' "$out" | sed 's/^/kafka:   /' >&2
    die "StorageTool format failed"
  fi
}

# ------------------------------------------------------------------ probes --

port_open() { # port_open <port>
  # shellcheck disable=SC2016 # expanded by the inner bash
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$HOST" "$1" 2>/dev/null
}

# True once the broker answers an Admin metadata request (lists topics).
metadata_served() {
  [[ -f "$ADMIN_PROPS" ]] || render_config
  timeout 30 java "${TOOL_JVM[@]}" "$(log_flag "$TOOLS_LOG4J")" -cp "$LIBS/*" \
    org.apache.kafka.tools.TopicCommand --bootstrap-server "$HOST:$PORT" \
    --command-config "$ADMIN_PROPS" --list </dev/null >/dev/null 2>&1
}

serving() { port_open "$PORT" && metadata_served; }

# kill -0 also succeeds for a zombie / a process being torn down: check its state.
alive() {
  [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null || return 1
  local state
  state="$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null || true)"
  [[ "$state" != Z && "$state" != X ]]
}

# Prints the pid from the pid file if that process is alive and is our broker.
our_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  alive "$pid" || return 1
  # Guard against pid reuse: the process must be kafka.Kafka with our config.
  local cmd
  cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
  [[ -z "$cmd" || ("$cmd" == *kafka.Kafka* && "$cmd" == *"$PROPS"*) ]] || return 1
  printf '%s' "$pid"
}

clear_stale_pid() {
  if [[ -f "$PID_FILE" ]] && ! our_pid >/dev/null; then
    log "removing stale pid file $PID_FILE (pid $(tr -dc '0-9' <"$PID_FILE") is not a running broker)"
    rm -f "$PID_FILE"
  fi
}

show_logs() {
  local f
  for f in "$SERVER_LOG" "$STDOUT_LOG"; do
    [[ -s "$f" ]] || continue
    err "---- last 50 lines of $f ----"
    tail -n 50 "$f" >&2
  done
  err "----"
}

# wait_ready [pid]: bounded wait for the broker; fails fast if pid dies.
wait_ready() {
  local pid="${1:-}" deadline=$((SECONDS + WAIT_SECS))
  log "waiting up to ${WAIT_SECS}s for $HOST:$PORT to serve metadata..."
  while ((SECONDS < deadline)); do
    if [[ -n "$pid" ]] && ! alive "$pid"; then
      err "broker process $pid exited during startup"
      show_logs
      rm -f "$PID_FILE"
      return 2
    fi
    if port_open "$PORT" && metadata_served; then
      log "ready on $HOST:$PORT"
      return 0
    fi
    sleep 1
  done
  err "timed out after ${WAIT_SECS}s waiting for $HOST:$PORT"
  show_logs
  [[ -z "$pid" ]] || err "broker pid $pid is left running; 'bash scripts/kafka.sh stop' ends it"
  return 1
}

# ----------------------------------------------------------------- locking --

lock() {
  mkdir -p "$KHOME"
  exec 9>"$KHOME/.lock-$PORT"
  flock -w $((WAIT_SECS + 300)) 9 || die "could not get the lock $KHOME/.lock-$PORT"
}

# ---------------------------------------------------------------- commands --

cmd_start() {
  need timeout
  ensure_libs
  lock
  render_config

  if port_open "$PORT" && metadata_served; then
    if [[ -n "$SASL_SSL_PORT" ]] && ! port_open "$SASL_SSL_PORT"; then
      die "a broker already runs on $HOST:$PORT without the SASL_SSL listener on $SASL_SSL_PORT: stop it first (bash scripts/kafka.sh stop)"
    fi
    ensure_scram_user
    log "already running on $HOST:$PORT, nothing to do"
    return 0
  fi

  clear_stale_pid
  local pid
  if pid="$(our_pid)"; then
    log "broker (pid $pid) is already starting"
    local rc=0
    wait_ready "$pid" || rc=$?
    # rc 2: that broker died meanwhile (crash, kill -9): start a fresh one.
    ((rc == 2)) || return 1
    log "starting a new broker"
    local deadline=$((SECONDS + 10))
    while { port_open "$PORT" || port_open "$CONTROLLER_PORT"; } && ((SECONDS < deadline)); do sleep 0.2; done
  fi

  local p
  for p in "$PORT" "$CONTROLLER_PORT" ${SASL_SSL_PORT:+"$SASL_SSL_PORT"}; do
    if port_open "$p"; then
      die "$HOST:$p is in use by another process that is not a ready Kafka broker started by this script (see: ss -ltnp 'sport = :$p')"
    fi
  done

  format_storage
  log "starting Kafka $(kafka_version) (KRaft, node 1) on $HOST:$PORT (advertised as $HOST:$ADVERTISED_PORT), controller $HOST:$CONTROLLER_PORT"
  log "data: $DATA_DIR  logs: $LOG_DIR"
  rm -f "$PID_FILE"
  printf '\n==== %s start ====\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" >>"$STDOUT_LOG"
  # setsid: its own session, so the broker outlives the calling shell/job.
  # 9>&-: the broker must not inherit (and hold forever) our lock fd.
  # shellcheck disable=SC2016,SC2086 # $$ is for the inner bash; HEAP_OPTS splits on purpose
  nohup setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PID_FILE" \
    java $HEAP_OPTS -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    "$(log_flag "$BROKER_LOG4J")" -Dkafka.logs.dir="$LOG_DIR" \
    -cp "$LIBS/*" kafka.Kafka "$PROPS" \
    </dev/null >>"$STDOUT_LOG" 2>&1 8>&- 9>&- &

  local _
  for _ in $(seq 1 50); do
    [[ -s "$PID_FILE" ]] && break
    sleep 0.1
  done
  pid="$(tr -dc '0-9' <"$PID_FILE" 2>/dev/null || true)"
  [[ -n "$pid" ]] || { show_logs; die "broker did not start (no pid)"; }
  log "broker pid $pid"
  wait_ready "$pid" || return 1
  ensure_scram_user
}

cmd_stop() {
  lock
  clear_stale_pid
  local pid
  if ! pid="$(our_pid)"; then
    if port_open "$PORT"; then
      err "something listens on $HOST:$PORT but it was not started by this script (no pid file in $BROKER_DIR); not stopping it"
      return 1
    fi
    log "not running"
    return 0
  fi
  log "stopping broker (pid $pid)..."
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_SECS))
  while alive "$pid" && ((SECONDS < deadline)); do
    sleep 0.5
  done
  if alive "$pid"; then
    err "broker did not stop within ${STOP_SECS}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    deadline=$((SECONDS + 15))
    while alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
  fi
  # The ports must be free before a following `start`.
  deadline=$((SECONDS + 10))
  while { port_open "$PORT" || port_open "$CONTROLLER_PORT"; } && ((SECONDS < deadline)); do sleep 0.2; done
  rm -f "$PID_FILE"
  log "stopped"
}

cmd_status() {
  need timeout
  local pid=""
  pid="$(our_pid || true)"
  if ! libs_ready; then
    # Nothing fetched yet, so nothing of ours runs; don't download just to check.
    if port_open "$PORT"; then
      log "$HOST:$PORT answers, but Kafka is not fetched yet so metadata can't be checked (run: bash scripts/kafka.sh start)"
    else
      log "not running on $HOST:$PORT"
    fi
    return 1
  fi
  if port_open "$PORT" && metadata_served; then
    log "running on $HOST:$PORT${pid:+ (pid $pid)}"
    return 0
  fi
  if [[ -n "$pid" ]]; then
    log "not serving on $HOST:$PORT (broker pid $pid is alive: starting or unhealthy; logs in $LOG_DIR)"
  else
    log "not running on $HOST:$PORT"
  fi
  return 1
}

cmd_wait() {
  need timeout
  ensure_libs
  render_config
  wait_ready "$(our_pid || true)" || return 1
}

cmd_client_env() {
  printf 'KAFKA_BROKERS=%s\n' "$HOST:${SASL_SSL_PORT:-$ADVERTISED_PORT}"
  [[ -n "$SASL_SSL_PORT" ]] || return 0
  [[ -s "$TLS_DIR/sasl.password" ]] || die "no SASL_SSL listener was set up for this broker yet: run start with KAFKA_SASL_SSL_PORT first"
  printf 'KAFKA_SSL=true\nKAFKA_SSL_CA_FILE=%s\nKAFKA_SASL_MECHANISM=scram-sha-256\nKAFKA_SASL_USERNAME=%s\nKAFKA_SASL_PASSWORD=%s\n' \
    "$TLS_DIR/ca.pem" "$SASL_USER" "$(<"$TLS_DIR/sasl.password")"
}

cmd_topics() {
  ensure_libs
  [[ -f "$TOOLS_LOG4J" ]] || render_config
  tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$HOST:$PORT" "$@"
}

main() {
  (($# >= 1)) || usage
  local cmd="$1"
  shift
  case "$cmd" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    wait) cmd_wait ;;
    topics) cmd_topics "$@" ;;
    client-env) cmd_client_env ;;
    -h | --help | help) usage ;;
    *) err "unknown command '$cmd'"; usage ;;
  esac
}

main "$@"
