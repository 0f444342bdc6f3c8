#!/bin/sh
# print the port of every environment
for env in dev staging prod; do
	larkspur get --file "config/$env.toml" --key server.port --format plain || echo "missing: $env" >&2
done
