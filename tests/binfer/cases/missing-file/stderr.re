no-such-file.ndjson
