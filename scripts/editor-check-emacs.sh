#!/usr/bin/env bash
# scripts/editor-check-emacs.sh — checks editors/emacs/crdlab.el: Emacs
# (batch, no init file) with eglot opens the CronTab CRD with a broken
# rule, and the crdlab lsp diagnostic must reach flymake at the rule's
# line and CEL's column with the API server's message. Prints what Emacs saw; exits 1 if
# the diagnostic is missing. Needs emacs with eglot (Emacs 29, or Debian
# 12's emacs-nox + elpa-eglot) and go. Not part of make test (Emacs is not
# installed by make setup); run by hand.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/crdlab" "$root/cmd/crdlab"
python3 - "$root/examples/crontab-crd.yaml" "$tmp/crontab-crd.yaml" <<'PY'
import sys
src = open(sys.argv[1]).read()
src = src.replace("                  default: 1\n", """                  default: 1
              x-kubernetes-validations:
                - rule: "self.replicas <= self.maxReplicas"
                  message: too many replicas
""", 1)
open(sys.argv[2], "w").write(src)
PY
cat > "$tmp/check.el" <<EL
(setq debug-on-error nil eglot-events-buffer-size 0)
(package-initialize)
(unless (fboundp 'yaml-mode)
  ;; no yaml-mode package here: a stand-in major mode of that name
  (define-derived-mode yaml-mode text-mode "YAML"))
(load "$root/editors/emacs/crdlab.el")
(setq crdlab-lsp-command '("$tmp/crdlab" "lsp"))
(setq eglot-sync-connect 30)
(find-file "$tmp/crontab-crd.yaml")
(yaml-mode)
;; eglot-ensure connects after the next command: there is none in batch
(run-hooks 'post-command-hook)
(let ((deadline (+ (float-time) 60)) diags)
  (while (and (< (float-time) deadline)
              (not (setq diags (flymake-diagnostics))))
    (accept-process-output nil 0.2)
    (when (bound-and-true-p flymake-mode) (flymake-start)))
  (unless diags
    (princ (format "server: %S flymake: %S\n" (eglot-current-server) (bound-and-true-p flymake-mode))))
  (dolist (d diags)
    (princ (format "%d:%d %s\n"
                   (line-number-at-pos (flymake-diagnostic-beg d))
                   (save-excursion (goto-char (flymake-diagnostic-beg d)) (current-column))
                   (car (split-string (flymake-diagnostic-text d) "\n")))))
  ;; on the rule's line, at the '.' CEL points at
  (let ((at (save-excursion (goto-char (point-min)) (search-forward ".maxReplicas") (match-beginning 0))))
    (kill-emacs (if (seq-some (lambda (d) (and (string-match-p "undefined field 'maxReplicas'" (flymake-diagnostic-text d))
                                               (= (flymake-diagnostic-beg d) at)))
                              diags)
                    0 1))))
EL
emacs --batch -q -l "$tmp/check.el" 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; echo "editor-check-emacs: no crdlab diagnostic in Emacs" >&2; exit 1; }
echo "editor-check-emacs: ok (Emacs $(emacs --version | head -1 | awk '{print $3}'), eglot)"
