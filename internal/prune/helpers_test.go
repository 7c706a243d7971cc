package prune

import "github.com/crdlab/crdlab/internal/testjson"

var (
	decode = testjson.Decode
	encode = testjson.Encode
	sch    = testjson.Schema
)
