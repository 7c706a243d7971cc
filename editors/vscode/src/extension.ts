// The crdlab extension: starts `crdlab lsp` (the language server of the
// crdlab CLI) for YAML files. It adds diagnostics, completion, hovers and
// quick fixes next to Red Hat's YAML extension (which keeps doing JSON
// Schema validation, formatting and outline): both serve the same YAML
// documents, each with its own diagnostics source ("crdlab", "YAML").
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

function serverOptions(): ServerOptions {
  const path = vscode.workspace.getConfiguration('crdlab').get<string>('path') || 'crdlab';
  // TransportKind.stdio: the client adds --stdio, which crdlab lsp accepts.
  return { command: path, args: ['lsp'], transport: TransportKind.stdio };
}

function initializationOptions() {
  const cfg = vscode.workspace.getConfiguration('crdlab');
  return {
    crdPaths: cfg.get<string[]>('crdPaths') ?? [],
    scanWorkspace: cfg.get<boolean>('scanWorkspace') ?? true,
    debounceMs: cfg.get<number>('debounceMs') ?? 100,
    kubeVersion: cfg.get<string>('kubeVersion') ?? '',
    markersCommand: cfg.get<string>('markersCommand') ?? '',
  };
}

async function start(): Promise<void> {
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
      // Go files when crdlab.markersCommand is set (kubebuilder markers)
      ...(vscode.workspace.getConfiguration('crdlab').get<string>('markersCommand')
        ? [{ scheme: 'file', language: 'go' }]
        : []),
    ],
    initializationOptions: initializationOptions(),
    // settings changes reach the server as workspace/didChangeConfiguration,
    // YAML and JSON files changed on disk as workspace/didChangeWatchedFiles
    // (the server reads the workspace's CRDs again)
    synchronize: {
      configurationSection: 'crdlab',
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml,json}'),
    },
  };
  client = new LanguageClient('crdlab', 'crdlab', serverOptions(), clientOptions);
  try {
    await client.start();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(
      `crdlab: could not start "${vscode.workspace.getConfiguration('crdlab').get<string>('path') || 'crdlab'} lsp" (${msg}). Install crdlab or set crdlab.path.`,
    );
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  await start();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('crdlab.path')) {
        await client?.stop();
        await start();
      }
    }),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
