package botpay

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// DuplicateJSONKey finds the first object member named twice in the JSON
// text data, at any depth, and returns its path as the decoders name fields ("items[0].name").
// encoding/json keeps the last of two equal keys, so a body such as
// {"amount_usd":1,"amount_usd":500000} would mean one thing to a proxy or
// log reader that keeps the first and another to the service; such bodies
// are refused instead. Malformed JSON reports no duplicate: the caller's
// decoder refuses it.
func DuplicateJSONKey(data []byte) (path string, found bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	path, found, _ = duplicateIn(dec, "")
	return path, found
}

// duplicateIn reads one JSON value from dec.
func duplicateIn(dec *json.Decoder, prefix string) (string, bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", false, err
	}
	switch tok {
	case json.Delim('{'):
		return duplicateInObject(dec, prefix)
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if path, found, err := duplicateIn(dec, prefix+"["+strconv.Itoa(i)+"]"); found || err != nil {
				return path, found, err
			}
		}
		_, err = dec.Token()
		return "", false, err
	}
	return "", false, nil
}

func duplicateInObject(dec *json.Decoder, prefix string) (string, bool, error) {
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", false, err
		}
		key, _ := tok.(string)
		member := key
		if prefix != "" {
			member = prefix + "." + key
		}
		if seen[key] {
			return member, true, nil
		}
		seen[key] = true
		if path, found, err := duplicateIn(dec, member); found || err != nil {
			return path, found, err
		}
	}
	_, err := dec.Token()
	return "", false, err
}
