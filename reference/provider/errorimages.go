package provider

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
)

// ErrorImagePlaceholder is the text Pi 1.6 leaves in an error tool result
// in place of its images, which it sends after the turn's tool results.
const ErrorImagePlaceholder = "(image attached after the tool results)"

// ErrorImages is an error tool result split for an API that takes no
// images in one (Pi 1.6's splitErrorToolResultImages, for Anthropic and
// Claude on Bedrock).
type ErrorImages struct {
	// Content is the result's content with each run of images replaced by
	// one ErrorImagePlaceholder text (none after a text that is the
	// placeholder already).
	Content []ai.Block
	// Caption is the text sent before the images: it names the tool call
	// and the tool.
	Caption string
	// Images are the result's images, in order.
	Images []ai.Block
}

// SplitErrorImages splits m when it is an error (isError truthy) holding
// images (elements whose type is "image"); ok is false for any other
// result, which is sent as it is.
func SplitErrorImages(m *ai.ToolResultMessage) (split ErrorImages, ok bool) {
	if !m.IsError.Truthy() {
		return ErrorImages{}, false
	}
	for _, b := range m.Content {
		if isImage(b) {
			split.Images = append(split.Images, b)
		}
	}
	if len(split.Images) == 0 {
		return ErrorImages{}, false
	}
	afterPlaceholder := false
	for _, b := range m.Content {
		if isImage(b) {
			if !afterPlaceholder {
				split.Content = append(split.Content, &ai.TextBlock{Text: ErrorImagePlaceholder})
			}
			afterPlaceholder = true
			continue
		}
		split.Content = append(split.Content, b)
		text := stream.Member(b.JSON(), "text")
		afterPlaceholder = text.Kind() == jsonv.String && text.Str() == ErrorImagePlaceholder
	}
	id := m.Loose.Value("toolCallId", m.ToolCallID)
	name := m.Loose.Value("toolName", m.ToolName)
	split.Caption = "Images from the error result of tool call " + stream.ToString(id) + " (" + stream.ToString(name) + "):"
	return split, true
}

func isImage(b ai.Block) bool {
	if b.BlockType() == "image" {
		return true
	}
	f, ok := b.(*ai.ForeignBlock)
	return ok && f.Type() == "image"
}
