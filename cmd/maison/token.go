package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"maison/internal/scope"
	"maison/oauth"
)

// tokenCmd prints a long-lived access token.
func tokenCmd() command {
	return command{
		name: "token", args: "[--scope house.read|house.control|both] [--ttl 90d] [--name NAME]",
		short: "print a long-lived access token signed with MAISON_SECRET",
		about: "Prints a long-lived access token signed with MAISON_SECRET.",
		does:  "only signs a token",
		settings: slices.Concat(oauthSettings, []setting{
			{name: "scope", def: scope.Read,
				usage: "scopes of the token: house.read, house.control or both",
				text:  func(c *config) *string { return &c.raw.scopes }},
			{name: "ttl", def: "90d",
				usage: "how long the token lives, such as 12h, 30d or 90d",
				text:  func(c *config) *string { return &c.raw.ttl }},
			{name: "name",
				usage: "a name for the token, shown in the audit log",
				text:  func(c *config) *string { return &c.TokenName }},
		}),
		run: func(ctx context.Context, cfg config, s streams, logger *slog.Logger) error {
			return runToken(cfg, s.out, s.err)
		},
	}
}

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
