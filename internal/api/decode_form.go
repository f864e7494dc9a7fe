package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// form reads a decoded body into a generated request type of package wire,
// member by member, with the readers of object: each problem is the one
// those readers report (so error codes and messages do not depend on the
// type), and each member's name is its json tag, never a second spelling.
// A member whose reading the wire type cannot hold (null that differs from
// absent, an integer the service checks itself) is read by name instead.
type form struct {
	body   *object
	target reflect.Value // the struct being filled
}

// into starts reading body into *dst, a struct of package wire.
func (o *object) into(dst any) form {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("api: form of %T: want a pointer to a struct", dst))
	}
	return form{body: o, target: v.Elem()}
}

// name is the JSON name of the member that field points to.
func (f form) name(field any) string { return memberName(f.target, field) }

// jsonName is the JSON name of the member of *structPtr that field points
// to: jsonName(&req, &req.BuyerEmail) is "buyer_email".
func jsonName(structPtr, field any) string {
	v := reflect.ValueOf(structPtr)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("api: jsonName of %T: want a pointer to a struct", structPtr))
	}
	return memberName(v.Elem(), field)
}

// memberName finds the member of target at field's address; a pointer
// that is not to one of its members is a programming error.
func memberName(target reflect.Value, field any) string {
	p := reflect.ValueOf(field)
	if p.Kind() != reflect.Pointer {
		panic(fmt.Sprintf("api: form member %T: want a pointer", field))
	}
	off := p.Pointer() - target.Addr().Pointer()
	t := target.Type()
	for i := range t.NumField() {
		m := t.Field(i)
		if m.Offset == off && m.Type == p.Type().Elem() {
			name, _, _ := strings.Cut(m.Tag.Get("json"), ",")
			return name
		}
	}
	panic(fmt.Sprintf("api: form member %v is not a member of %v", p.Type(), t))
}

// text reads a required string: absent, null and blank are "is required".
func (f form) text(dst *string) { *dst = f.body.required(f.name(dst)) }

// optText reads an optional string; absent and null leave it nil.
func (f form) optText(dst **string) { *dst = f.body.optStr(f.name(dst)) }

// flag reads an optional boolean; absent and null leave it nil.
func (f form) flag(dst **bool) { *dst = f.body.boolean(f.name(dst)) }

// integer reads an optional integer of ±2^31; absent and null leave it nil.
func (f form) integer(dst **int) { *dst = f.body.integer(f.name(dst)) }

// usd reads a required dollar amount, rounded to the cent.
func (f form) usd(dst *wire.USD) {
	m, _ := f.body.usd(f.name(dst), requiredField)
	*dst = wire.USD(m)
}

// optUSD reads an optional dollar amount; absent and null leave it nil.
func (f form) optUSD(dst **wire.USD) {
	if m, ok := f.body.usd(f.name(dst), optionalField); ok {
		*dst = wire.Ptr(wire.USD(m))
	}
}

// strings reads an optional array of strings; absent and null leave it
// nil, [] is an empty list that is not nil (see sentList).
func (f form) strings(dst *[]string) {
	if list := f.body.strings(f.name(dst)); list != nil {
		*dst = nonNilList(*list)
	}
}

// decimal reads a required number as its exact text.
func (f form) decimal(dst *json.Number) {
	name := f.name(dst)
	if _, ok := f.body.number(name, requiredField); ok {
		*dst = json.Number(f.body.fields[name])
	}
}

// sentList is list when it was sent (even empty), nil when it was not.
func sentList(list []string) *[]string {
	if list == nil {
		return nil
	}
	return &list
}

// deref is *p, or the zero value when p is nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// money is an amount read by a form as the service's type.
func money(u wire.USD) botpay.Money { return botpay.Money(u) }

// optMoney is an optional amount read by a form as the service's type.
func optMoney(u *wire.USD) *botpay.Money {
	if u == nil {
		return nil
	}
	return wire.Ptr(money(*u))
}
