#!/usr/bin/env bash
# Installs the age private key as the sops-age Secret in flux-system (Security Engineer, T-1.4).
# The key is never committed (.gitignore guards age.key / *.key).
set -euo pipefail
key="${SOPS_AGE_KEY_FILE:-$HOME/.config/sops/age/keys.txt}"
kubectl create namespace flux-system --dry-run=client -o yaml | kubectl apply -f -
kubectl -n flux-system create secret generic sops-age --from-file=age.agekey="$key" \
  --dry-run=client -o yaml | kubectl apply -f -
