// Package strfmt holds the string formats kube-apiserver checks and parses,
// with the semantics of k8s.io/kube-openapi/pkg/validation/strfmt (the
// registry strfmt.Default with the Kubernetes extensions k8s-short-name and
// k8s-long-name, and the govalidator checks it vendors), as of
// kube-openapi's version in k8s.io/apiextensions-apiserver v0.37.2.
//
// Three users share it: OpenAPI schema validation (the format keyword, via
// Lookup), the CEL value conversion (ParseDuration, ParseDateTime and
// ParseBase64 turn strings with format duration, date-time and byte into CEL
// durations, timestamps and bytes, as upstream's UnstructuredToVal) and the
// CEL format library (format.uuid(), format.date(), ... use the checkers and
// the pattern lengths as MaxRegexSize).
//
// Regular expressions are compiled on first use, not at package
// initialisation: start-up time matters in the WebAssembly module.
package strfmt

import (
	"strings"

	"github.com/crdlab/crdlab/internal/keys"
)

// formats is the registry of string formats kube-apiserver validates, keyed
// by normalized name (dashes removed, as go-openapi's DefaultNameNormalizer
// does): kube-openapi's strfmt.Default plus its Kubernetes extensions.
// Each checker reports whether a string is valid for the format.
var formats = map[string]func(string) bool{
	"bsonobjectid": IsBSONObjectID,
	"date":         IsDate,
	"datetime":     IsDateTime,
	"duration":     IsDuration,
	"uri":          IsURI,
	"email":        IsEmail,
	"hostname":     IsHostname,
	"ipv4":         IsIPv4,
	"ipv6":         IsIPv6,
	"cidr":         IsCIDR,
	"mac":          IsMAC,
	"uuid":         IsUUID,
	"uuid3":        IsUUID3,
	"uuid4":        IsUUID4,
	"uuid5":        IsUUID5,
	"isbn":         IsISBN,
	"isbn10":       IsISBN10,
	"isbn13":       IsISBN13,
	"creditcard":   IsCreditCard,
	"ssn":          IsSSN,
	"hexcolor":     IsHexColor,
	"rgbcolor":     IsRGBColor,
	"byte":         IsBase64,
	"password":     IsPassword,
	"k8sshortname": IsShortName,
	"k8slongname":  IsLongName,
}

// Normalize is go-openapi's format name normalization: dashes removed.
func Normalize(name string) string {
	return strings.ReplaceAll(name, "-", "")
}

// supportedStringFormats are the string formats CRD schemas may use at
// compatibility version 1.36/1.37 (upstream's supportedVersionedFormats: the
// 1.0 set plus k8s-short-name and k8s-long-name from 1.34), normalized.
var supportedStringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true,
	"ipv4": true, "ipv6": true, "cidr": true, "mac": true,
	"uuid": true, "uuid3": true, "uuid4": true, "uuid5": true,
	"isbn": true, "isbn10": true, "isbn13": true, "creditcard": true,
	"ssn": true, "hexcolor": true, "rgbcolor": true, "byte": true,
	"password": true, "date": true, "duration": true, "datetime": true,
	"k8sshortname": true, "k8slongname": true,
}

// SupportedStringFormat reports whether a string format is kept in a CRD
// schema by kube-apiserver 1.37 (others are stripped and never checked).
func SupportedStringFormat(format string) bool {
	return supportedStringFormats[Normalize(format)]
}

// Lookup returns the checker of a format of kube-openapi's registry
// (strfmt.Default with the Kubernetes extensions), by name with or without
// dashes ("date-time", "datetime"), or nil when the registry does not know
// it or name is "" (upstream then does not check the format at all).
func Lookup(name string) func(string) bool {
	if name == "" {
		return nil
	}
	return formats[Normalize(name)]
}

// Names lists the normalized names of the registry, sorted (conformance's
// format differential checks each against upstream's registry).
func Names() []string {
	return keys.Sorted(formats)
}
