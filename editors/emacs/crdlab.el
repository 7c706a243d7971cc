;;; crdlab.el --- crdlab's language server in Emacs (eglot) -*- lexical-binding: t -*-

;; Starts `crdlab lsp' for YAML buffers through eglot (built into Emacs
;; 29; the `eglot' package for Emacs 26-28: Debian's elpa-eglot). Eglot
;; runs one server per buffer: crdlab replaces yaml-language-server in
;; YAML buffers. Load this file from init.el (or copy the forms).
;; scripts/editor-check-emacs.sh runs it headless against crdlab lsp.

;;; Code:

(require 'eglot)

(defvar crdlab-lsp-command '("crdlab" "lsp")
  "The command that starts crdlab's language server.")

(defvar crdlab-lsp-initialization-options '()
  "crdlab lsp's initializationOptions, a plist: (:crdPaths [\"config/crd\"] :debounceMs 100).")

(add-to-list 'eglot-server-programs
             `((yaml-mode yaml-ts-mode)
               . ,(lambda (&rest _)
                    (append crdlab-lsp-command
                            (when crdlab-lsp-initialization-options
                              (list :initializationOptions crdlab-lsp-initialization-options))))))

(add-hook 'yaml-mode-hook #'eglot-ensure)
(add-hook 'yaml-ts-mode-hook #'eglot-ensure)

(provide 'crdlab)
;;; crdlab.el ends here
