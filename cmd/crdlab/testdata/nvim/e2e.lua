-- Driven by TestNeovimEndToEnd (lsp_nvim_test.go): opens a CRD with a
-- broken rule and an over-budget rule in headless Neovim with the
-- editors/nvim/crdlab.lua configuration, and writes what the editor saw
-- (diagnostics, completion, hover, the quick fix's effect, a policy's
-- diagnostics) to a JSON file.
local env = vim.env
local out = { steps = {} }
local function step(s) table.insert(out.steps, s) end
local function finish()
  vim.fn.writefile({ vim.fn.json_encode(out) }, env.CRDLAB_E2E_OUT)
  vim.cmd('qa!')
end
local ok, err = pcall(function()
  dofile(env.CRDLAB_NVIM_CONFIG).setup({
    cmd = { env.CRDLAB_BIN, 'lsp' },
    init_options = { debounceMs = 50 },
  })
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(env.CRDLAB_E2E_FILE))
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  local function diags()
    return vim.tbl_map(function(d)
      return { lnum = d.lnum, col = d.col, message = d.message, severity = d.severity }
    end, vim.diagnostic.get(buf))
  end
  local function has(substr)
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.message:find(substr, 1, true) then return true end
    end
    return false
  end
  step('wait for diagnostics')
  vim.wait(60000, function() return has('maxReplicas') end, 50)
  out.diagnostics = diags()
  out.client_count = #vim.lsp.get_active_clients()

  -- completion right after "self." in the broken rule
  local line = tonumber(env.CRDLAB_E2E_SELF_LINE)
  local char = tonumber(env.CRDLAB_E2E_SELF_CHAR)
  step('completion')
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/completion',
    { textDocument = { uri = uri }, position = { line = line, character = char } }, 30000)
  out.completion = {}
  for _, r in pairs(res or {}) do
    local items = r.result and (r.result.items or r.result) or {}
    for _, it in ipairs(items) do table.insert(out.completion, it.label) end
  end

  -- hover on the over-budget rule
  step('hover')
  res = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
    { textDocument = { uri = uri }, position = { line = tonumber(env.CRDLAB_E2E_COST_LINE), character = tonumber(env.CRDLAB_E2E_COST_CHAR) } }, 60000)
  out.hover = ''
  for _, r in pairs(res or {}) do
    if r.result and r.result.contents then out.hover = r.result.contents.value or '' end
  end

  -- the bound quick fix on the cost diagnostic
  step('code action')
  local costdiag
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('estimated rule cost exceeds budget', 1, true) then costdiag = d end
  end
  out.actions = {}
  if costdiag then
    local range = { start = { line = costdiag.lnum, character = costdiag.col }, ['end'] = { line = costdiag.end_lnum or costdiag.lnum, character = costdiag.end_col or costdiag.col } }
    res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction',
      { textDocument = { uri = uri }, range = range, context = { diagnostics = {} } }, 60000)
    local chosen
    for _, r in pairs(res or {}) do
      for _, a in ipairs(r.result or {}) do
        table.insert(out.actions, a.title)
        if not chosen and a.title:find('^Set maxItems') then chosen = a end
      end
    end
    if chosen then
      step('apply ' .. chosen.title)
      vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
      out.changed_lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
      vim.wait(60000, function() return not has('estimated rule cost exceeds budget') and has('maxReplicas') end, 50)
      out.after_fix = diags()
    end
  end

  -- a ValidatingAdmissionPolicy: its compile error inside the expression
  if env.CRDLAB_E2E_POLICY then
    step('policy')
    vim.cmd('edit ' .. vim.fn.fnameescape(env.CRDLAB_E2E_POLICY))
    local pbuf = vim.api.nvim_get_current_buf()
    vim.wait(60000, function() return #vim.diagnostic.get(pbuf) > 0 end, 50)
    out.policy_diagnostics = vim.tbl_map(function(d)
      return { lnum = d.lnum, col = d.col, message = d.message, severity = d.severity }
    end, vim.diagnostic.get(pbuf))
  end
end)
if not ok then out.error = tostring(err) end
finish()
