#!/bin/sh
# Lab stand-in for the script the k3s installer leaves at /usr/local/bin/k3s-uninstall.sh: records
# that it ran on this node (state key k3s-uninstall) and prints what the real one does, stopping k3s
# and removing its data (etcd member data included).
. "${0%/*}/lab-state.sh"

# The real script's first check.
if [ "$(id -u)" != 0 ]; then
  echo "${0##*/}: must be run as root" >&2
  exit 1
fi
lab_record k3s-uninstall ran
lab_set k3s.service inactive
echo '+ systemctl stop k3s'
echo '+ rm -rf /etc/rancher/k3s'
echo '+ rm -rf /var/lib/rancher/k3s'
echo '+ rm -f /usr/local/bin/k3s'
