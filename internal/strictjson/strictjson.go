// Package strictjson reads a model's reply that must be exactly one JSON
// object: the judging calls, query enhancement and quiz generation all ask
// for one, and a reply off the format is not trusted in part.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/docent-sh/docent/textsafe"
)

// Object decodes exactly one JSON object in data into v, refusing unknown
// fields and anything after it but white space. Its errors quote the
// decoder's message on one line, clipped: they may reach a notice.
func Object(data []byte, v any) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("the reply is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the reply is not the JSON asked for: %s", textsafe.Clip(textsafe.Line(err.Error()), 120))
	}
	if dec.More() || dec.InputOffset() != int64(len(trimmed)) {
		return errors.New("the reply has more after its JSON object")
	}
	return nil
}
