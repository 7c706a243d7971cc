package conversion

import (
	"os"
	"testing"
)

// FuzzCheck: any answer (and any request) gets a verdict or a usage error,
// never a panic.
func FuzzCheck(f *testing.F) {
	crd, err := os.ReadFile("../examples/conversion/crd.yaml")
	if err != nil {
		f.Fatal(err)
	}
	request, err := os.ReadFile("../examples/conversion/request.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range []string{"response.json", "response-wrong-version.json", "response-bad-label.json", "response-invalid-object.json"} {
		data, err := os.ReadFile("../examples/conversion/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(request, data)
	}
	f.Add(request, []byte(`{"response":{"convertedObjects":[null,1,"x",{"kind":"CronTab","metadata":{"labels":{"a":1}}}]}}`))
	f.Fuzz(func(t *testing.T, req, resp []byte) {
		res, err := Check(crd, req, resp, Options{})
		if err == nil && res == nil {
			t.Fatal("no result and no error")
		}
		if err == nil && res.Accepted != (res.Error == "") {
			t.Fatalf("Accepted %v with error %q", res.Accepted, res.Error)
		}
	})
}
