package provider

import (
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// SystemMessageUpdate is a system message kept mid-conversation as Pi 1.6
// renders it for a model that takes it where it stands
// (renderSystemMessageUpdate): the text of its content, then a line per
// section, "Removed system prompt section "<name>"." for null, else
// "Updated system prompt section "<name>":", a blank line and the text
// (String() of another value); the parts joined by a blank line. Where Pi
// throws reading the content, the error is a *jsonv.PathError at ptr.
func SystemMessageUpdate(m *ai.SystemMessage, ptr string) (string, error) {
	text, err := contentText(m.Content.JSON(), jsonv.Child(ptr, "content"))
	if err != nil {
		return "", err
	}
	var parts []string
	if text != "" {
		parts = append(parts, text)
	}
	for _, e := range entries(m.Sections) {
		if e.Value.Kind() == jsonv.Null {
			parts = append(parts, `Removed system prompt section "`+e.Key+`".`)
			continue
		}
		if e.Value.ConversionThrows() {
			return "", jsonv.Errorf(jsonv.Child(jsonv.Child(ptr, "sections"), e.Key), "%s", jsonv.NoPrimitiveText)
		}
		parts = append(parts, `Updated system prompt section "`+e.Key+`":`+"\n\n"+e.Value.JSString())
	}
	return wtf8.Concat(strings.Join(parts, "\n\n")), nil
}
