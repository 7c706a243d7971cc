#!/usr/bin/env bash
# scripts/editor-screenshot.sh — docs/editors-nvim.png: Neovim (headless,
# in tmux) with editors/nvim/crdlab.lua on the CronTab CRD with a broken
# rule and a rule over its cost limit: the diagnostics as virtual text and
# the completion menu after "self.". The screen is captured with tmux
# capture-pane, rendered to HTML (scripts/ansi2html.py) and photographed
# by headless Chromium.
#
#   scripts/editor-screenshot.sh [OUT.png]
#
# Needs nvim, tmux, python3, chromium (CHROMIUM), go.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/editors-nvim.png}
chromium=${CHROMIUM:-/usr/bin/chromium}
tmp=$(mktemp -d)
session=crdlab-shot-$$
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$tmp"' EXIT

go build -o "$tmp/bin/crdlab" "$root/cmd/crdlab"
# the CRD of the Neovim end-to-end test (cmd/crdlab/lsp_nvim_test.go)
python3 - "$root/examples/crontab-crd.yaml" "$tmp/crontab-crd.yaml" <<'PY'
import sys
src = open(sys.argv[1]).read()
src = src.replace("                  default: 1\n", """                  default: 1
                tags:
                  type: array
                  items:
                    type: string
                  x-kubernetes-validations:
                    - rule: "self.all(x, x.matches('^[a-z]+$'))"
              x-kubernetes-validations:
                - rule: "self.replicas <= self.maxReplicas"
                  message: too many replicas
""", 1)
open(sys.argv[2], "w").write(src)
PY
cat > "$tmp/shot.lua" <<LUA
dofile('$root/editors/nvim/crdlab.lua').setup({ cmd = { '$tmp/bin/crdlab', 'lsp' } })
vim.o.number = true
vim.o.termguicolors = false
vim.o.laststatus = 0
vim.o.ruler = false
vim.o.showmode = false
vim.o.pumheight = 8
vim.cmd('syntax on')
vim.cmd('filetype on')
vim.cmd('edit $tmp/crontab-crd.yaml')
vim.bo.omnifunc = 'v:lua.vim.lsp.omnifunc'
vim.o.completeopt = 'menuone,noinsert'
local buf = vim.api.nvim_get_current_buf()
vim.wait(30000, function() return #vim.diagnostic.get(buf) >= 3 end, 100)
-- the cursor after "self." of self.maxReplicas, then omni-completion
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for i, l in ipairs(lines) do
  local c = l:find('self.maxReplicas', 1, true)
  if c then
    vim.api.nvim_win_set_cursor(0, { i, c + 4 })
    vim.cmd('normal! zz')
    vim.cmd('normal! 8\\25')
    vim.api.nvim_win_set_cursor(0, { i, c + 4 })
    break
  end
end
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('i<C-x><C-o>', true, false, true), 'n', false)
LUA
tmux new-session -d -s "$session" -x 118 -y 34 "TERM=xterm-256color nvim -u NONE -i NONE -n -c 'luafile $tmp/shot.lua'"
sleep "${SHOT_WAIT:-8}"
tmux capture-pane -p -e -t "$session" > "$tmp/screen.ans"
python3 "$root/scripts/ansi2html.py" < "$tmp/screen.ans" > "$tmp/screen.html"
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1130,660 \
  --screenshot="$out" "file://$tmp/screen.html" >/dev/null 2>&1
echo "wrote $out"
