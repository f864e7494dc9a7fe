package cardfile

import (
	"strings"
	"testing"
)

func TestEncryptedFileOpensOnlyWithItsKeyAndCard(t *testing.T) {
	key := NewKey()
	d := Details{Number: "4242424242424242", CVV: "123", ExpiryMonth: "12", ExpiryYear: "2031", HolderName: "Ada Lovelace"}
	file, err := Encrypt(key, "r5card_1", d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(file, d.Number) || strings.Contains(file, "Lovelace") {
		t.Fatalf("file shows the card in the clear: %s", file)
	}
	got, err := Decrypt(key, file)
	if err != nil || got != d {
		t.Fatalf("Decrypt = %+v, %v", got, err)
	}
	if _, err := Decrypt(NewKey(), file); err == nil {
		t.Error("a wrong key opened the file")
	}
	moved := strings.Replace(file, "r5card_1", "r5card_2", 1)
	if _, err := Decrypt(key, moved); err == nil {
		t.Error("a file relabelled to another card opened")
	}
}

func TestLuhn(t *testing.T) {
	for n, ok := range map[string]bool{"4242424242424242": true, "4242424242424241": false, "79927398713": true, "": false, "12a4": false} {
		if Luhn(n) != ok {
			t.Errorf("Luhn(%q) = %v", n, !ok)
		}
	}
}
