# Sourced by the ops host's helm and flux stand-ins: they reach the kube-sim of the cluster their
# KUBECONFIG names, through the lab's plain-HTTP relay (state key kube-sim-url.<kubeconfig file name>).
# The real curl, by its path: the `curl` stand-in beside this file answers only the exit-IP lookup.

# lab_sim METHOD PATH: prints the body; exits 22 on an HTTP error (its body on stdout all the same).
lab_sim() {
  sim_url=$(lab_state "kube-sim-url.${KUBECONFIG##*/}" '')
  if [ -z "$sim_url" ]; then
    return 99
  fi
  /usr/bin/curl --silent --noproxy '*' --max-time 10 --fail-with-body -X "$1" "$sim_url$2"
}

# lab_json_field NAME: the string field NAME of the JSON object on stdin.
lab_json_field() {
  /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1"
}

# lab_node_sim PATH [BODY]: POSTs what k3s on this node did to the cluster's kube-sim (state key
# kube-sim-url, the relay); returns 99 when this node has no sim, 22 when the sim refuses (body on stdout).
lab_node_sim() {
  sim_url=$(lab_state kube-sim-url '')
  if [ -z "$sim_url" ]; then
    return 99
  fi
  body=${2:-}
  [ -n "$body" ] || body='{}'
  /usr/bin/curl --silent --noproxy '*' --max-time 10 --fail-with-body -X POST \
    -H 'content-type: application/json' --data "$body" "$sim_url$1"
}
