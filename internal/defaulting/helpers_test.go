package defaulting

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/internal/testsupport/testjson"
)

var (
	decode = testjson.Decode
	encode = testjson.Encode
	sch    = testjson.Schema
)

func encodeNoTest(v interface{}) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}
