package schemadiff

import "github.com/crdlab/crdlab/engine/field"

func fieldPathX() *field.Path { return field.NewPath("x") }
