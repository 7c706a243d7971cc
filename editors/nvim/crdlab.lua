-- crdlab's language server in Neovim (0.7 and later), without plugins:
--
--   require('crdlab').setup()            -- with this file on 'runtimepath' (lua/crdlab.lua)
--   dofile('/path/to/crdlab.lua').setup() -- or loaded directly
--
-- It starts `crdlab lsp` for YAML buffers: vim.lsp.start on Neovim 0.8+
-- (one client per root directory, reused across buffers), and on 0.7
-- (Debian 12's neovim) one client started with vim.lsp.start_client and
-- attached to each YAML buffer. Options:
--   cmd          the command (default { 'crdlab', 'lsp' })
--   init_options the server's initializationOptions
--                ({ crdPaths = { 'config/crd' }, debounceMs = 100,
--                kubeVersion = '1.36' }); with markersCommand =
--                'crdlab-markers' Go buffers are served too (diagnostics
--                on kubebuilder markers, on open and save)
--   root_dir     the workspace folder (default: the current directory)
-- This is the configuration crdlab's Neovim end-to-end test runs
-- (cmd/crdlab/lsp_nvim_test.go).
local M = {}

function M.setup(opts)
  opts = opts or {}
  local config = {
    name = 'crdlab',
    cmd = opts.cmd or { 'crdlab', 'lsp' },
    root_dir = opts.root_dir or vim.fn.getcwd(),
    init_options = opts.init_options or vim.empty_dict(),
  }
  local group = vim.api.nvim_create_augroup('crdlab_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = (opts.init_options and opts.init_options.markersCommand or '') ~= '' and { 'yaml', 'go' } or 'yaml',
    callback = function(args)
      if vim.lsp.start then
        vim.lsp.start(config, { bufnr = args.buf })
        return
      end
      if not M.client_id or vim.lsp.client_is_stopped(M.client_id) then
        M.client_id = vim.lsp.start_client(config)
      end
      if M.client_id then
        vim.lsp.buf_attach_client(args.buf, M.client_id)
      end
    end,
  })
end

return M
