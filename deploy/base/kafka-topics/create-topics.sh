#!/usr/bin/env bash
# Creates Vigil's Kafka topics with their partition counts and configs before the services start
# (they create any that are missing themselves too; both are idempotent). Never changes an
# existing topic: adding partitions moves keys to other partitions and breaks per-key order, so
# that stays a deliberate operator step. A topic with fewer partitions than listed fails the Job.
#
# Env: KAFKA_BROKERS (comma-separated host:port), KAFKA_TOPIC_PREFIX, TOPICS_FILE,
#      KAFKA_COMMAND_CONFIG (optional admin client properties file, e.g. for TLS/SASL),
#      KAFKA_TOPICS_BIN (default: the apache/kafka image's kafka-topics.sh).
set -euo pipefail

: "${KAFKA_BROKERS:?KAFKA_BROKERS is required}"
prefix="${KAFKA_TOPIC_PREFIX:-}"
topics_file="${TOPICS_FILE:-/opt/vigil/topics.txt}"
kafka_topics="${KAFKA_TOPICS_BIN:-/opt/kafka/bin/kafka-topics.sh}"

common=(--bootstrap-server "$KAFKA_BROKERS")
if [[ -n "${KAFKA_COMMAND_CONFIG:-}" ]]; then common+=(--command-config "$KAFKA_COMMAND_CONFIG"); fi

failed=0
while read -r name partitions configs; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  topic="${prefix}${name}"
  args=(--create --if-not-exists --topic "$topic" --partitions "$partitions")
  for config in $configs; do args+=(--config "$config"); done
  "$kafka_topics" "${common[@]}" "${args[@]}"

  actual="$("$kafka_topics" "${common[@]}" --describe --topic "$topic" \
    | sed -n 's/.*PartitionCount:[[:space:]]*\([0-9][0-9]*\).*/\1/p' | head -n 1)"
  if [[ -z "$actual" ]]; then
    echo "error: could not read the partition count of $topic" >&2
    failed=1
  elif ((actual < partitions)); then
    echo "error: $topic has $actual partitions, Vigil expects $partitions (kafka-topics.sh --alter --partitions $partitions, after reading deploy/README.md)" >&2
    failed=1
  else
    echo "ok: $topic ($actual partitions)"
  fi
done <"$topics_file"
exit "$failed"
