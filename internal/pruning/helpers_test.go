package pruning

import "github.com/crdlab/crdlab/internal/testsupport/testjson"

var (
	decode = testjson.Decode
	encode = testjson.Encode
	sch    = testjson.Schema
)
