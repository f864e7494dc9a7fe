// Package bots owns bots and their keys: registration (with a pairing code
// or a claim token), the claim of a bot by its owner and the claim page's
// preview, API key rotation by the owner or by the bot, and the
// authentication of a bot by its API key, with the in-memory cache of the
// payment endpoints that a rotation anywhere ends within a second; a change
// of the callback URL by the bot or its owner; the card wallet and default
// guardrails a claim creates; and the reads of bots the other capabilities
// make through their own interfaces (Bot, OwnedBot, OwnerBots,
// BotByTunnelTokenHash). Its SQL sits beside each use case (*_sql.go);
// what it needs of the rate-limit windows and of owner mail it reaches
// through the interfaces in service.go.
package bots
