#!/usr/bin/env bash
# Creates Vigil's Kafka topics with their partition counts and configs before the services start
# (they create any that are missing themselves too; both are idempotent). Never changes an
# existing topic: adding partitions moves keys to other partitions and breaks per-key order, so
# that stays a deliberate operator step. A topic with fewer partitions than listed fails the Job.
#
# Env: KAFKA_BROKERS (comma-separated host:port), KAFKA_TOPIC_PREFIX, TOPICS_FILE,
#      the services' TLS/SASL settings (KAFKA_SSL, KAFKA_SSL_CA_FILE, KAFKA_SASL_MECHANISM,
#      KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD), turned into an admin client properties file,
#      or KAFKA_COMMAND_CONFIG (a properties file of your own, used as is),
#      KAFKA_TOPICS_BIN (default: the apache/kafka image's kafka-topics.sh).
set -euo pipefail

: "${KAFKA_BROKERS:?KAFKA_BROKERS is required}"
prefix="${KAFKA_TOPIC_PREFIX:-}"
topics_file="${TOPICS_FILE:-/opt/vigil/topics.txt}"
kafka_topics="${KAFKA_TOPICS_BIN:-/opt/kafka/bin/kafka-topics.sh}"

common=(--bootstrap-server "$KAFKA_BROKERS")
if [[ -z "${KAFKA_COMMAND_CONFIG:-}" && "${KAFKA_SSL:-false}" == "true" ]]; then
  # The same connection as the services: TLS against KAFKA_SSL_CA_FILE, SASL when a mechanism is set.
  KAFKA_COMMAND_CONFIG="$(mktemp)"
  chmod 600 "$KAFKA_COMMAND_CONFIG"
  {
    mechanism="${KAFKA_SASL_MECHANISM:-none}"
    if [[ "$mechanism" == "none" ]]; then echo "security.protocol=SSL"; else echo "security.protocol=SASL_SSL"; fi
    if [[ -n "${KAFKA_SSL_CA_FILE:-}" ]]; then
      echo "ssl.truststore.type=PEM"
      echo "ssl.truststore.location=$KAFKA_SSL_CA_FILE"
    fi
    case "$mechanism" in
      none) ;;
      plain)
        echo "sasl.mechanism=PLAIN"
        echo "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"$KAFKA_SASL_USERNAME\" password=\"$KAFKA_SASL_PASSWORD\";" ;;
      scram-sha-256 | scram-sha-512)
        echo "sasl.mechanism=${mechanism^^}"
        echo "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$KAFKA_SASL_USERNAME\" password=\"$KAFKA_SASL_PASSWORD\";" ;;
      *) echo "error: KAFKA_SASL_MECHANISM must be none, plain, scram-sha-256 or scram-sha-512" >&2; exit 1 ;;
    esac
  } >"$KAFKA_COMMAND_CONFIG"
fi
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
