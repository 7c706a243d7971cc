package abi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conversion"
	"github.com/crdlab/crdlab/wire"
)

// TestConversionReviewIsConversionCheck: "conversionReview" answers
// json.Marshal of conversion.Check on the same bytes, accepted or rejected;
// inputs that cannot be checked are a DecodeError with its message, a
// request without a review a BadRequest.
func TestConversionReviewIsConversionCheck(t *testing.T) {
	crdText := readTestFile(t, "examples/conversion/crd.yaml")
	review := readTestFile(t, "examples/conversion/request.json")
	s := NewServer()
	for _, resp := range []string{"response.json", "response-bad-label.json", "response-invalid-object.json", "response-no-namespace.json", "response-wrong-version.json"} {
		t.Run(resp, func(t *testing.T) {
			response := readTestFile(t, "examples/conversion/"+resp)
			res, err := conversion.Check([]byte(crdText), []byte(review), []byte(response), conversion.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(res)
			env := call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": crdText, "review": review, "reviewResponse": response}))
			if !env.OK || string(env.Result) != string(want) {
				t.Fatalf("conversionReview:\n got %s %v\nwant %s", env.Result, env.Error, want)
			}
		})
	}
	t.Run("list option", func(t *testing.T) {
		response := readTestFile(t, "examples/conversion/response-wrong-version.json")
		res, err := conversion.Check([]byte(crdText), []byte(review), []byte(response), conversion.Options{List: true, ListAPIVersion: "stable.example.com/v1"})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(res)
		env := call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": crdText, "review": review, "reviewResponse": response, "list": true, "listAPIVersion": "stable.example.com/v1"}))
		if !env.OK || string(env.Result) != string(want) || !res.List {
			t.Fatalf("conversionReview with list:\n got %s %v\nwant %s", env.Result, env.Error, want)
		}
	})
	t.Run("errors", func(t *testing.T) {
		_, nerr := conversion.Check([]byte(crdText), []byte(`{}`), []byte(`{}`), conversion.Options{})
		if nerr == nil {
			t.Fatal("native: an empty review is accepted")
		}
		env := call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": crdText, "review": `{}`}))
		if env.OK || env.Error.Code != wire.CodeDecodeError || env.Error.Message != nerr.Error() {
			t.Fatalf("empty review: got %+v, want DecodeError %q", env.Error, nerr)
		}
		env = call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": crdText}))
		if env.OK || env.Error.Code != wire.CodeBadRequest || !strings.Contains(env.Error.Message, `needs "review"`) {
			t.Fatalf("no review: got %+v, want BadRequest", env.Error)
		}
	})
}
