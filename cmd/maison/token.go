package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"maison/oauth"
)

// runToken prints a long-lived access token signed with MAISON_SECRET, for
// clients that can send a header (maison token --scope house.read --ttl 90d).
func runToken(cfg config, stdout, stderr io.Writer) error {
	if cfg.Secret == "" {
		return errors.New("MAISON_SECRET is not set: tokens are signed with it; use the same value maison serve runs with")
	}
	as, err := oauth.New(oauth.Config{Issuer: cfg.PublicURL, Secret: []byte(cfg.Secret)})
	if err != nil {
		return err
	}
	tok, exp, err := as.Mint(cfg.TokenScopes, cfg.TokenTTL, cfg.TokenName)
	if err != nil {
		return fmt.Errorf("--scope: %w", err)
	}
	fmt.Fprintln(stdout, tok)
	fmt.Fprintf(stderr, "A token for %s, valid until %s, for %s. Send it as Authorization: Bearer <token>. Changing MAISON_SECRET or MAISON_PUBLIC_URL revokes it.\n",
		strings.Join(cfg.TokenScopes, " and "), exp.UTC().Format(time.DateTime+" UTC"), as.Resource())
	return nil
}
