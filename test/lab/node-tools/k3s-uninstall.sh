#!/bin/sh
# Lab stand-in for the script the k3s installer leaves at /usr/local/bin/k3s-uninstall.sh: prints
# what the real one does, stopping k3s and removing its data (etcd member data included), and records
# its start (state key k3s-uninstall-starts) and its end (k3s-uninstall, "ran") on this node. State
# keys: k3s-uninstall-hold (it waits after its first removal while the key is there, as a node with
# much data under /var/lib/rancher takes its time), k3s-uninstall-exit (its exit status at the end,
# as a removal that failed makes the real one's).
. "${0%/*}/lab-state.sh"

# The real script's first check.
if [ "$(id -u)" != 0 ]; then
  echo "${0##*/}: must be run as root" >&2
  exit 1
fi
lab_record k3s-uninstall-starts started
lab_set k3s.service inactive
echo '+ systemctl stop k3s'
echo '+ rm -rf /etc/rancher/k3s'
while lab_has k3s-uninstall-hold; do sleep 0.1; done
echo '+ rm -rf /var/lib/rancher/k3s'
echo '+ rm -f /usr/local/bin/k3s'
lab_record k3s-uninstall ran
exit "$(lab_state k3s-uninstall-exit 0)"
