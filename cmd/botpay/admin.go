package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func migrate(ctx context.Context, args []string, stdout io.Writer) error {
	d, err := open(ctx, "botpay migrate", args, os.Stderr, nil)
	if err != nil {
		return err
	}
	defer d.store.Close()
	fmt.Fprintf(stdout, "database (%s) is up to date\n", d.store.Dialect())
	return nil
}

// owner create makes an owner account from the command line, for operators
// and scripts, and prints its token once.
func owner(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: botpay owner create --email EMAIL --password PASSWORD [settings flags]")
	}
	var email, password string
	d, err := open(ctx, "botpay owner create", args[1:], io.Discard, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "owner e-mail")
		fs.StringVar(&password, "password", os.Getenv("BOTPAY_OWNER_PASSWORD"), "password, at least 12 characters ($BOTPAY_OWNER_PASSWORD)")
	})
	if err != nil {
		return err
	}
	defer d.store.Close()
	sess, err := d.svc.Accounts().Signup(ctx, email, password, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "owner_uid: %s\nemail: %s\ntoken: %s\n", sess.Owner.ID, sess.Owner.Email, sess.Token)
	return nil
}
