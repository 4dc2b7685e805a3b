package ingredient

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

func TestMemoAnswersAsDescribe(t *testing.T) {
	m := NewMemo(3)
	lines := []string{"2 eggs", "1 1/2 cups flour, sifted", "salt to taste", "2 eggs", "", "3-4 cloves garlic (minced)", "1 1/2 cups flour, sifted"}
	for _, l := range lines {
		if got, want := m.Describe(l), Describe(l); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: memo %+v, Parse %+v", l, got, want)
		}
	}
	if n := len(m.lines); n > 3 {
		t.Errorf("holds %d lines, bound 3", n)
	}
}

func TestMemoConcurrent(t *testing.T) {
	m := NewMemo(50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				l := fmt.Sprintf("%d cups flour", (g*i)%120)
				if got, want := m.Describe(l), Describe(l); !reflect.DeepEqual(got, want) {
					t.Errorf("%q: %+v, want %+v", l, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestMemoRecipeAnswersAsDescribeRecipe(t *testing.T) {
	m := NewMemo(4)
	recipes := [][]string{
		{"2 el olijfolie", "1 avocado", "1 rode ui, gesnipperd"},
		{"1 cup rice", "1 avocado"},
		{"2 el olijfolie", "1 avocado", "1 rode ui, gesnipperd"},
		{"1 avocado"},
	}
	for _, r := range recipes {
		if got, want := m.DescribeRecipe(r), DescribeRecipe(r); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: memo %+v, DescribeRecipe %+v", r, got, want)
		}
	}
	if n := len(m.lines) + len(m.other); n > 4 {
		t.Errorf("holds %d readings, bound 4", n)
	}
}
