#!/usr/bin/env bash
# Prepares this machine for the lab the tests and the demo run on (fresh Debian): Node 24 (through
# scripts/use-node-24.sh, for this script's npm ci; source that in your shell too), then installs
# what is missing (Redis, sshd, ansible-core, openssl, git, chromium, sudo, script, busybox), makes /run/sshd, starts Redis on
# 127.0.0.1:6379 unless one answers there, and installs the npm dependencies. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/use-node-24.sh

need_apt=()
command -v redis-server >/dev/null || need_apt+=(redis-server)
command -v redis-cli >/dev/null || need_apt+=(redis-tools)
[ -x /usr/sbin/sshd ] || need_apt+=(openssh-server)
command -v ssh-keygen >/dev/null || need_apt+=(openssh-client)
command -v ansible-playbook >/dev/null || need_apt+=(ansible-core)
command -v openssl >/dev/null || need_apt+=(openssl)
command -v git >/dev/null || need_apt+=(git)
# The job page's tests drive Debian's chromium through puppeteer-core (test/support/start-browser.ts).
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# The console's pty test runs it under util-linux `script` (test/support/start-console-pty.ts).
command -v script >/dev/null || need_apt+=(bsdutils)
# Prod's lab nodes log in as a user whose sudo asks for the vaulted password (test/lab/password-sudo-user.ts).
command -v sudo >/dev/null || need_apt+=(sudo)
# An ops host whose find is BusyBox's (no -printf) takes no toolchain stamp (test/lifecycle/toolchain-stamp.lab.test.ts).
command -v busybox >/dev/null || need_apt+=(busybox)
if [ "${#need_apt[@]}" -gt 0 ]; then
  echo "prepare-lab: installing ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
# The lab's sshd refuses to start without its privilege-separation directory.
mkdir -p /run/sshd

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "prepare-lab: starting redis-server"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/lab.log
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null
fi

npm ci --no-audit --no-fund
