# Sourced by the lab stand-ins. State lives in $LAB_STATE_DIR: a file per key, and a folder per node
# address ($LAB_NODE_ADDRESS, set by the lab's ForceCommand wrapper) whose files override the shared ones,
# so one sshd on several loopback addresses can play nodes in different states.

lab_node_dir() {
  printf '%s/%s' "$LAB_STATE_DIR" "$LAB_NODE_ADDRESS"
}

# lab_state KEY DEFAULT: the node's value, else the shared value, else DEFAULT.
lab_state() {
  if [ -e "$(lab_node_dir)/$1" ]; then
    cat "$(lab_node_dir)/$1"
  elif [ -e "$LAB_STATE_DIR/$1" ]; then
    cat "$LAB_STATE_DIR/$1"
  else
    printf '%s' "$2"
  fi
}

lab_has() {
  [ -e "$(lab_node_dir)/$1" ] || [ -e "$LAB_STATE_DIR/$1" ]
}

# lab_set KEY VALUE: changes this node's state only.
lab_set() {
  mkdir -p "$(lab_node_dir)" && printf '%s' "$2" >"$(lab_node_dir)/$1"
}

# lab_record KEY LINE: appends what the tool was asked to do, for the test to read back.
lab_record() {
  mkdir -p "$(lab_node_dir)" && printf '%s\n' "$2" >>"$(lab_node_dir)/$1"
}

# lab_path PATH: PATH as this node sees it (the lab's ForceCommand rewrites mapped paths in the
# command line only; a stand-in that reads a fixed path maps it the same way).
lab_path() {
  mapped=$1
  if [ -f "$(lab_node_dir)/lab-paths" ]; then
    while IFS='	' read -r from to; do
      mapped=$(printf '%s\n' "$mapped" | sed "s|$from|$to|g")
    done <"$(lab_node_dir)/lab-paths"
  fi
  printf '%s' "$mapped"
}
