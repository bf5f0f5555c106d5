package provider

import (
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

func TestSplitErrorImages(t *testing.T) {
	img := &ai.ImageBlock{Data: "d", MimeType: "image/png"}
	text := func(s string) ai.Block { return &ai.TextBlock{Text: s} }
	for _, tc := range []struct {
		name    string
		isError jsonv.Value
		content []ai.Block
		split   bool
		want    string // the content left, as JSON
		images  int
	}{
		{name: "not an error", isError: jsonv.BoolValue(false), content: []ai.Block{img}},
		{name: "an error without images", isError: jsonv.BoolValue(true), content: []ai.Block{text("x")}},
		{name: "a run of images is one placeholder", isError: jsonv.BoolValue(true), split: true, images: 3,
			content: []ai.Block{text("a"), img, img, text("b"), img},
			want:    `[{"type":"text","text":"a"},{"type":"text","text":"` + ErrorImagePlaceholder + `"},{"type":"text","text":"b"},{"type":"text","text":"` + ErrorImagePlaceholder + `"}]`},
		{name: "no second placeholder after one written", isError: jsonv.NumberValue("1"), split: true, images: 1,
			content: []ai.Block{text(ErrorImagePlaceholder), img},
			want:    `[{"type":"text","text":"` + ErrorImagePlaceholder + `"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &ai.ToolResultMessage{ToolCallID: "c1", ToolName: "shot", Content: tc.content, IsError: tc.isError}
			got, ok := SplitErrorImages(m)
			if ok != tc.split {
				t.Fatalf("split %v, want %v", ok, tc.split)
			}
			if !ok {
				return
			}
			if s := jsonv.ArrayOf(got.Content).String(); s != tc.want {
				t.Errorf("content %s, want %s", s, tc.want)
			}
			if len(got.Images) != tc.images || got.Caption != "Images from the error result of tool call c1 (shot):" {
				t.Errorf("%d images, caption %q", len(got.Images), got.Caption)
			}
		})
	}
}

func TestFitThinkingBudget(t *testing.T) {
	for _, tc := range []struct{ budget, max, want string }{
		{"8192", "64000", "8192"},
		{"8192", "9000", "7976"},
		{"8192", "500", "0"},
		{"", "9000", "null"},    // no budget: NaN
		{"8192", `"x"`, "null"}, // a cap that is no number: NaN
	} {
		var budget jsonv.Value
		if tc.budget != "" {
			budget = jsonvtest.Parse(t, tc.budget)
		}
		if got := FitThinkingBudget(budget, jsonvtest.Parse(t, tc.max)).Stringified().String(); got != tc.want {
			t.Errorf("FitThinkingBudget(%s, %s) = %s, want %s", tc.budget, tc.max, got, tc.want)
		}
	}
}
