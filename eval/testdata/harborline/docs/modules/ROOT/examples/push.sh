#!/usr/bin/env bash
# Push a first image to Harborline.
set -euo pipefail

ORG=acme
PROJECT=web

hbl auth configure-docker # <1>

docker pull nginx:1.27-alpine
docker tag nginx:1.27-alpine cr.harborline.io/${ORG}/${PROJECT}/nginx:1.27 # <2>
docker push cr.harborline.io/${ORG}/${PROJECT}/nginx:1.27 # <3>

hbl scan report ${ORG}/${PROJECT}/nginx:1.27 --wait # <4>
