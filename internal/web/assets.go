package web

import (
	"crypto/sha256"
	"crypto/sha512"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"net/http"
)

// walletScript is the one script of the buyer pages (assets/wallet-pay.js).
//
//go:embed assets/wallet-pay.js
var walletScript []byte

// walletScriptVersion names the script's content in its address, so the
// browser may keep it for a year: a new build is a new address.
var walletScriptVersion = func() string {
	sum := sha256.Sum256(walletScript)
	return hex.EncodeToString(sum[:8])
}()

// walletScriptIntegrity is the script's subresource integrity digest: a
// page runs it only if it is byte for byte the one the page names.
var walletScriptIntegrity = func() string {
	sum := sha512.Sum384(walletScript)
	return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
}()

// WalletScriptPath is the versioned address of the wallet script.
func WalletScriptPath() string { return "/assets/wallet-pay.js?v=" + walletScriptVersion }

// walletScriptAsset serves the script; the versioned address for a year,
// any other for no longer than it takes to revalidate.
func walletScriptAsset(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cross-Origin-Resource-Policy", "same-origin")
	if r.URL.Query().Get("v") == walletScriptVersion {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.Header().Set("ETag", `"`+walletScriptVersion+`"`)
	if r.Header.Get("If-None-Match") == `"`+walletScriptVersion+`"` {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	_, _ = w.Write(walletScript)
}
