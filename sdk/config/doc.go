// Package config gives a plugin its configuration from one declaration: a
// struct whose json tags name the keys of the rules file's `config = {…}`
// and whose other tags describe them. Decode fills the struct and reports
// every problem as a diagnostic at its key; Schema is the JSON Schema a
// plugin reports in its SourceInfo or AgentInfo.
//
// The tags beside `json:"key"`:
//
//	doc:"…"            the key's description in the schema
//	default:"…"        the value a key left unset takes, shown in the schema
//	want:"…"           what a valid value is ("a URL string"), for a value that does not decode
//	enum:"a,b"         the values the schema offers
//	min:"1" max:"2"    the bounds the schema gives a number
//	config:"required"  the key must be set
//	config:"secret"    the value is never repeated in a diagnostic (and is writeOnly in the schema)
//
// Decode checks that each value has its field's type, that required keys
// are set, and warns of unknown keys. Values within enum, min and max are
// the plugin's to check after Decode: it may accept aliases or spellings
// the schema does not list, and it words the problem its own way.
package config
