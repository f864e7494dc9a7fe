// Package sdktest runs the tests of the SDKs in other languages (sdk/…)
// against the whole service on a real HTTP server, on each database engine.
// It holds tests only.
package sdktest
