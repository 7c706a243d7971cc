//go:build !(linux && (amd64 || arm64))

package wasm

import "errors"

const mmapSupported = false

func mapMemory(uint64) ([]byte, error) { return nil, errors.New("not supported") }

func unmapMemory([]byte) error { return nil }
