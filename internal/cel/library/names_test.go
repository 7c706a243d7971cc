package library

import (
	"reflect"
	"strings"
	"testing"
)

func TestNamedFormatMessages(t *testing.T) {
	tests := []struct {
		name, format, in string
		want             []string
	}{
		{"valid label", "dns1123Label", "my-name", nil},
		{"label with dots", "dns1123Label", "a.b", []string{"must not contain dots"}},
		{"label too long reports characters", "dns1123Label", strings.Repeat("a", 64), []string{"must be no more than 63 characters"}},
		{"prefix masks the last two characters", "dns1123LabelPrefix", "abc-", nil},
		{"qualified name with empty prefix", "qualifiedName", "/a", []string{"prefix part must be non-empty"}},
		{"label value too long reports bytes", "labelValue", strings.Repeat("a", 64), []string{"must be no more than 63 bytes"}},
		{"uuid", "uuid", "nope", []string{"does not match the UUID format"}},
		{"base64", "byte", "!!", []string{"invalid base64"}},
		{"impossible date", "date", "2020-02-30", []string{"invalid date"}},
		{"hour 25", "datetime", "2020-01-01T25:00:00Z", []string{"invalid datetime"}},
		{"relative uri", "uri", "example", []string{`parse "example": invalid URI for request`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ConstantFormats[tt.format].ValidateFunc(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
