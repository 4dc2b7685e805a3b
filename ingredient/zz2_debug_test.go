package ingredient

import "testing"

func TestZZ2(t *testing.T) {
	t.Log(Match([]string{"1 cup vegetable oil", "20 guajillo chiles dried, stems and seeds removed", "35 chiles de Arbol dried, stems and seeds removed"}, []string{"Heat the oil until shimmering. Add the chiles and stir to coat with the oil."}))
	t.Log(Parse("20 guajillo chiles dried, stems and seeds removed").Name)
}
