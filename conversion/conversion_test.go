package conversion

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func example(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../examples/conversion/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestExamples pins the verdicts on the recorded answers of
// examples/conversion (the differential suite compares the checks with
// upstream's converter; this pins the files docs/updates.md walks through).
func TestExamples(t *testing.T) {
	crd, request := example(t, "crd.yaml"), example(t, "request.json")
	tests := []struct {
		response string
		err      string   // the API server's error
		pruned   []string // of the one object, when accepted
		invalid  []string // validation errors at v1, when accepted
	}{
		{"response.json", "", []string{"spec.cron"}, nil},
		{"response-wrong-version.json", "returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v1, received stable.example.com/v1beta1)", nil, nil},
		{"response-no-namespace.json", "returned invalid object: must have the same namespace: default != ", nil, nil},
		{"response-bad-label.json", `returned invalid metadata: metadata.labels: Invalid value: "converted by": name part must consist of alphanumeric characters`, nil, nil},
		{"response-invalid-object.json", "", []string{"spec.cron"}, []string{
			`spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1`,
			`spec.schedule: Invalid value: "nightly": spec.schedule in body should match '^(\S+\s+){4}\S+$'`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.response, func(t *testing.T) {
			res, err := Check(crd, request, example(t, tt.response), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tt.err != "" {
				if !strings.HasPrefix(res.Error, "conversion webhook for stable.example.com/v1beta1, Kind=CronTab ") || !strings.Contains(res.Error, tt.err) {
					t.Fatalf("error %q, want one containing %q", res.Error, tt.err)
				}
				if res.Valid || len(res.Objects) != 0 {
					t.Fatalf("a rejected answer is not valid and has no objects: %+v", res)
				}
				return
			}
			if res.Error != "" {
				t.Fatalf("rejected: %s", res.Error)
			}
			if len(res.Objects) != 1 {
				t.Fatalf("%d objects", len(res.Objects))
			}
			o := res.Objects[0]
			if strings.Join(o.Pruned, ",") != strings.Join(tt.pruned, ",") {
				t.Errorf("pruned %q, want %q", o.Pruned, tt.pruned)
			}
			if strings.Join(o.Errors, "\n") != strings.Join(tt.invalid, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(o.Errors, "\n"), strings.Join(tt.invalid, "\n"))
			}
			if res.Valid != (len(tt.invalid) == 0) {
				t.Errorf("Valid() = %v", res.Valid)
			}
			meta := o.Object["metadata"].(map[string]interface{})
			if meta["resourceVersion"] != "4821" || meta["creationTimestamp"] != "2026-11-20T08:00:00Z" {
				t.Errorf("the original metadata is not restored: %v", meta)
			}
			if a, _ := meta["annotations"].(map[string]interface{}); a["stable.example.com/converted-from"] != "v1beta1" {
				t.Errorf("the webhook's annotations are not kept: %v", meta)
			}
		})
	}
}

// TestUsageErrors: inputs that cannot be checked are *UsageError, never a
// verdict.
func TestUsageErrors(t *testing.T) {
	crd, request, response := example(t, "crd.yaml"), string(example(t, "request.json")), example(t, "response.json")
	noneCRD := strings.Replace(string(crd), "strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1, v1beta1]\n      clientConfig:\n        service: {namespace: crontab-system, name: crontab-conversion, path: /convert}", "strategy: None", 1)
	v1beta1CRD := strings.Replace(string(crd), "[v1, v1beta1]", "[v1beta1, v1]", 1)
	tests := []struct {
		name, crd, request, want string
	}{
		{"not a CRD", "kind: Pod\napiVersion: v1\n", request, "CRD: "},
		{"invalid CRD", strings.Replace(string(crd), "scope: Namespaced", "scope: Sideways", 1), request, "CRD: the API server rejects it: spec.scope: Unsupported value"},
		{"strategy None", noneCRD, request, "does not use a conversion webhook"},
		{"review version not the CRD's first", v1beta1CRD, request, "the API server sends a apiextensions.k8s.io/v1beta1 ConversionReview for this CRD"},
		{"request not JSON or YAML", string(crd), "{[", "request: "},
		{"request not a review", string(crd), `{"apiVersion":"v1","kind":"Pod"}`, `request: kind is "Pod", not ConversionReview`},
		{"no request", string(crd), `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}`, "the review's request is missing"},
		{"no uid", string(crd), strings.Replace(request, `"uid": "5f1f`, `"x": "5f1f`, 1), "request.uid is missing"},
		{"desired version not the CRD's", string(crd), strings.Replace(request, `"desiredAPIVersion": "stable.example.com/v1"`, `"desiredAPIVersion": "stable.example.com/v3"`, 1), "request to convert CR to an invalid group/version: stable.example.com/v3"},
		{"object of another version", string(crd), strings.Replace(request, `"apiVersion": "stable.example.com/v1beta1"`, `"apiVersion": "stable.example.com/v0"`, 1), "request.objects[0]: request to convert CR from an invalid group/version: stable.example.com/v0"},
		{"object already at the target", string(crd), strings.Replace(request, `"apiVersion": "stable.example.com/v1beta1"`, `"apiVersion": "stable.example.com/v1"`, 1), "is already at stable.example.com/v1"},
		{"object of another kind", string(crd), strings.Replace(request, `"kind": "CronTab"`, `"kind": "Other"`, 1), `kind "Other" is not the CRD's kind "CronTab"`},
		{"no objects", string(crd), `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"stable.example.com/v1","objects":[]}}`, "request.objects is empty"},
		{"empty object", string(crd), `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"stable.example.com/v1","objects":[{"apiVersion":"stable.example.com/v1beta1","kind":"CronTab"}]}}`, "without calling the webhook"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Check([]byte(tt.crd), []byte(tt.request), response, Options{})
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("want a *UsageError, got %v (result %+v)", err, res)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestResponseDecoding covers the answer's decoding paths that the
// differential suite checks against upstream, on the example's request.
func TestResponseDecoding(t *testing.T) {
	crd, request := example(t, "crd.yaml"), example(t, "request.json")
	prefix := "conversion webhook for stable.example.com/v1beta1, Kind=CronTab failed: "
	tests := []struct{ name, response, want string }{
		{"empty", "", prefix + "0-length response with status code: 200 and content type: application/json"},
		{"blank", " \n", prefix + "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind="},
		{"YAML answer", "apiVersion: apiextensions.k8s.io/v1\nkind: ConversionReview\nresponse: {uid: x}\n", prefix + `expected response.uid="5f1f6a2e-2b7c-4c52-9d4c-3b1c0a8e7d11", got "x"`},
		{"other version", `{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"ConversionReview"}`, prefix + "converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion"},
		{"missing version of another group", `{"apiVersion":"other/","kind":"X"}`, prefix + `Object 'apiVersion' is missing in '{"apiVersion":"other/","kind":"X"}'`},
		{"result message", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"5f1f6a2e-2b7c-4c52-9d4c-3b1c0a8e7d11","result":{"status":"Failure","message":"no"}}}`, prefix + "no"},
		{"cause of the wrong type", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"result":{"details":{"causes":[1]}}}}`, prefix + "json: cannot unmarshal number into Go struct field StatusDetails.response.result.details.causes of type v1.StatusCause"},
		{"code out of range", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"result":{"code":3000000000}}}`, prefix + "json: cannot unmarshal number 3000000000 into Go struct field Status.response.result.code of type int32"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Check(crd, request, []byte(tt.response), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Error != tt.want {
				t.Fatalf("error:\n got %q\nwant %q", res.Error, tt.want)
			}
		})
	}
}
