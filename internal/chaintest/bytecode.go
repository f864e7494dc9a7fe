package chaintest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/devnet"
	"github.com/botpay/botpay/internal/evm"
)

var compiled struct {
	once     sync.Once
	bytecode []byte
	err      error
}

// bytecode compiles the token once per test process, or reads what an
// earlier process compiled from the same inputs: solc-js costs seconds of
// CPU, and every package of chain tests is its own process.
func bytecode(t testing.TB) []byte {
	compiled.once.Do(func() { compiled.bytecode, compiled.err = cachedBytecode(Dir()) })
	if compiled.err != nil {
		t.Fatal(compiled.err)
	}
	return compiled.bytecode
}

// bytecodeInputs are what the compiled token depends on: the source, the
// compiler settings (compile.mjs) and the pinned solc.
var bytecodeInputs = []string{
	filepath.Join("contracts", "TestToken.sol"),
	"compile.mjs",
	filepath.Join("node_modules", "solc", "package.json"),
}

// cachedBytecode keeps the compiled token in node_modules/.cache, named
// after a digest of its inputs, so a changed input (or npm ci, which
// replaces node_modules) compiles afresh. Any trouble with the cache falls
// back to compiling.
func cachedBytecode(dir string) ([]byte, error) {
	h := sha256.New()
	for _, name := range bytecodeInputs {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return devnet.Bytecode(dir)
		}
		h.Write([]byte(name + "\x00"))
		h.Write(b)
	}
	path := filepath.Join(dir, "node_modules", ".cache", "botpay-token-"+hex.EncodeToString(h.Sum(nil))[:24]+".hex")
	if b, err := os.ReadFile(path); err == nil {
		if code, err := evm.ParseHexBytes(strings.TrimSpace(string(b))); err == nil && len(code) > 0 {
			return code, nil
		}
	}
	code, err := devnet.Bytecode(dir)
	if err != nil {
		return nil, err
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		// Written aside and renamed, so a process reading at the same
		// time sees the whole file or none.
		if f, err := os.CreateTemp(filepath.Dir(path), "botpay-token-*.tmp"); err == nil {
			_, werr := f.WriteString("0x" + hex.EncodeToString(code))
			if cerr := f.Close(); werr == nil && cerr == nil {
				os.Rename(f.Name(), path)
			}
			os.Remove(f.Name())
		}
	}
	return code, nil
}
