package build

import (
	"bytes"
	"encoding/json"
)

func indent(flat []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, flat, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
