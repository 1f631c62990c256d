#!/usr/bin/env bash
# Flux hand-off (GitOps Engineer, T-1.4). Invoked by infra/ansible/roles/flux_bootstrap through
# flux_bootstrap_flux_cmd. Bootstraps the dev cluster: prod needs --path=clusters/prod (§7).
set -euo pipefail
: "${GITHUB_OWNER:?set GITHUB_OWNER}"
flux bootstrap github \
  --owner="${GITHUB_OWNER}" \
  --repository=homelab \
  --branch=main \
  --personal \
  --path=clusters/dev
