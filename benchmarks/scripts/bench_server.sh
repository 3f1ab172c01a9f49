# Sourced by the ingest scripts (ingest_warm.sh, ingest_window.sh): what a benchmark server needs
# before it starts, as the end-to-end harness writes it (e2e.ServerConfigFile).

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'
}

# bench_config DATA_DIR PORT: the server's quarry.yml on stdout (indexes main and hec, blocks layout;
# JOURNAL, when set, the storage's journalCompression, e.g. none-zstd; PENDING, when set, its
# compaction.pendingBytes; the server's defaults else).
bench_config() {
  cat <<YML
server:
  bind: 127.0.0.1
  port: $2
dataDir: '$1'
indexes: [main, hec]
auth:
  adminPassword: bench-password
search:
  maxTimeSeconds: 3600
storage:${JOURNAL:+
  journalCompression: $JOURNAL}${PENDING:+
  compaction:
    pendingBytes: $PENDING}
  indexes:
    main: {format: blocks}
    hec: {format: blocks}
YML
}
