package seed

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The synthetic recipes of `admin seed`: titles, ingredient lines and steps
// built from a cook's vocabulary, so that search, ranking and filters see
// text shaped like the real thing (common words such as "chicken" in a few
// percent of titles and more ingredient lists, rare ones elsewhere, long
// instruction text that mentions ingredients again).

var (
	firstNames = []string{"Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonas", "Keiko", "Liam", "Maya", "Nils", "Olga", "Priya"}
	lastNames  = []string{"Archer", "Baptiste", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ivanova", "Jensen"}

	TagNames = []string{"Weeknight", "Family Favourite", "Spicy", "Gluten-Free", "Dairy-Free", "Make-Ahead", "One-Pot",
		"Freezer-Friendly", "Holiday", "Barbecue", "Budget", "Comfort Food", "Healthy", "High-Protein", "Kid-Friendly",
		"Meal Prep", "Party", "Picnic", "Quick", "Slow Cooker", "Summer", "Winter", "Autumn", "Spring", "Vegan",
		"Vegetarian", "Low-Carb", "Leftovers", "Date Night", "Brunch", "Lunchbox", "Street Food", "Traybake",
		"Grandma's", "Christmas", "Easter", "Sunday Lunch", "Air Fryer", "No-Bake", "Festive"}

	proteins = []struct{ name, line string }{
		{"Chicken", "chicken thighs, skinless and boneless"}, {"Chicken", "chicken breasts, sliced"},
		{"Beef", "beef mince"}, {"Beef", "stewing beef, diced"}, {"Pork", "pork shoulder, diced"},
		{"Lamb", "lamb leg steaks"}, {"Salmon", "salmon fillets"}, {"Cod", "cod loins"},
		{"Prawn", "raw king prawns, peeled"}, {"Tofu", "firm tofu, pressed and cubed"},
		{"Chickpea", "tins chickpeas, drained"}, {"Lentil", "red lentils, rinsed"}, {"Turkey", "turkey mince"},
		{"Duck", "duck breasts"}, {"Halloumi", "halloumi, sliced"}, {"Mushroom", "chestnut mushrooms, quartered"},
		{"Black Bean", "tins black beans, drained"}, {"Sausage", "pork sausages"}, {"Paneer", "paneer, cubed"},
		{"Aubergine", "aubergines, cut into chunks"},
	}
	vegetarian = map[string]bool{"Tofu": true, "Chickpea": true, "Lentil": true, "Halloumi": true, "Mushroom": true,
		"Black Bean": true, "Paneer": true, "Aubergine": true}
	cuisines  = []string{"Thai", "Moroccan", "Mexican", "Italian", "Japanese", "Indian", "Greek", "Korean", "Spanish", "French", "Lebanese", "Vietnamese", "Cajun", "Persian", "Sichuan"}
	dishTypes = []string{"Curry", "Stew", "Stir-Fry", "Salad", "Soup", "Tacos", "Traybake", "Pie", "Risotto", "Pasta",
		"Noodles", "Skewers", "Burgers", "Bake", "Casserole", "Flatbreads", "Rice Bowl", "Tagine", "Chilli", "Frittata", "Wraps", "Gratin"}
	modifiers = []string{"Lemon", "Garlic", "Honey", "Ginger", "Smoky", "Spicy", "Herby", "Creamy", "Crispy", "Sticky",
		"Zesty", "Roasted", "Slow-Cooked", "One-Pot", "Chipotle", "Miso", "Coconut", "Harissa", "Pesto", "Teriyaki", "Sesame", "Paprika", "Tamarind"}
	vegetables = []struct{ name, line string }{
		{"Peppers", "red peppers, sliced"}, {"Spinach", "baby spinach"}, {"Sweet Potato", "sweet potatoes, peeled and diced"},
		{"Broccoli", "broccoli, cut into florets"}, {"Courgette", "courgettes, sliced"}, {"Kale", "kale, stalks removed"},
		{"Tomatoes", "cherry tomatoes, halved"}, {"Carrots", "carrots, peeled and sliced"}, {"Peas", "frozen peas"},
		{"Cauliflower", "cauliflower, cut into florets"}, {"Squash", "butternut squash, peeled and cubed"},
		{"Asparagus", "asparagus spears, trimmed"}, {"Green Beans", "green beans, trimmed"}, {"Potatoes", "new potatoes, halved"},
		{"Cabbage", "savoy cabbage, shredded"}, {"Fennel", "fennel bulbs, thinly sliced"}, {"Leeks", "leeks, washed and sliced"},
		{"Beetroot", "cooked beetroot, cut into wedges"},
	}
	aromatics = []string{"onion, finely chopped", "red onion, sliced", "garlic cloves, crushed", "thumb-sized piece of ginger, grated",
		"shallots, finely sliced", "spring onions, sliced", "celery sticks, chopped", "red chilli, deseeded and chopped"}
	spices = []string{"ground cumin", "ground coriander", "smoked paprika", "garam masala", "turmeric", "chilli flakes",
		"ground cinnamon", "dried oregano", "ras el hanout", "five-spice powder", "curry powder", "fennel seeds", "sumac"}
	liquids = []string{"chicken stock", "vegetable stock", "coconut milk", "chopped tomatoes", "double cream", "white wine",
		"passata", "beef stock", "soy sauce", "crème fraîche"}
	herbs  = []string{"coriander", "flat-leaf parsley", "basil", "mint", "thyme", "rosemary", "dill", "chives", "tarragon"}
	sides  = []string{"steamed rice", "crusty bread", "naan bread", "a green salad", "mashed potatoes", "couscous", "warm tortillas", "buttered noodles", "roast potatoes"}
	fats   = []string{"olive oil", "vegetable oil", "butter", "sesame oil", "rapeseed oil"}
	pans   = []string{"large frying pan", "casserole dish", "wok", "heavy-based saucepan", "roasting tin", "deep sauté pan"}
	sweets = []string{"Chocolate", "Lemon", "Orange", "Vanilla", "Raspberry", "Strawberry", "Apple", "Banana", "Blueberry",
		"Cinnamon", "Salted Caramel", "Coffee", "Almond", "Coconut", "Ginger", "Pistachio", "Cherry", "Rhubarb", "Peanut Butter", "Maple"}
	bakes = []string{"Cake", "Brownies", "Cookies", "Muffins", "Tart", "Crumble", "Cheesecake", "Pudding", "Scones", "Loaf",
		"Pancakes", "Ice Cream", "Pie", "Bars", "Flapjacks", "Doughnuts", "Meringues", "Galette"}
	breakfasts = []string{"Overnight Oats", "Granola", "Smoothie Bowl", "Porridge", "French Toast", "Waffles", "Breakfast Muffins", "Bircher Muesli"}
	adjectives = []string{"easy", "weeknight", "crowd-pleasing", "comforting", "bright", "fragrant", "hearty", "light", "rich", "speedy", "foolproof"}
)

// dishSection is one named group of ingredient lines or steps.
type dishSection struct {
	name  string
	items []string
}

// dish is one synthetic recipe's text.
type dish struct {
	title, description string
	categories         []string
	ingredients, steps []dishSection
}

func pick[T any](rng *rand.Rand, s []T) T { return s[rng.IntN(len(s))] }

func newDish(rng *rand.Rand) dish {
	switch p := rng.IntN(100); {
	case p < 70:
		return savouryDish(rng)
	case p < 90:
		return sweetDish(rng)
	default:
		return breakfastDish(rng)
	}
}

func savouryDish(rng *rand.Rand) dish {
	prot := pick(rng, proteins)
	veg := pick(rng, vegetables)
	cuisine := pick(rng, cuisines)
	typ := pick(rng, dishTypes)
	var title string
	switch rng.IntN(4) {
	case 0:
		title = fmt.Sprintf("%s %s %s", pick(rng, modifiers), prot.name, typ)
	case 1:
		title = fmt.Sprintf("%s %s %s with %s", cuisine, prot.name, typ, veg.name)
	case 2:
		title = fmt.Sprintf("%s and %s %s", prot.name, veg.name, typ)
	default:
		title = fmt.Sprintf("%s %s %s", pick(rng, modifiers), pick(rng, modifiers), prot.name)
	}
	fat, aromatic, aromatic2 := pick(rng, fats), pick(rng, aromatics), pick(rng, aromatics)
	spice, spice2, liquid := pick(rng, spices), pick(rng, spices), pick(rng, liquids)
	herb, side, pan := pick(rng, herbs), pick(rng, sides), pick(rng, pans)

	main := []string{
		fmt.Sprintf("%d %s", 300+100*rng.IntN(8), prot.line),
		fmt.Sprintf("2 tbsp %s", fat),
		fmt.Sprintf("1 %s", aromatic),
		fmt.Sprintf("%d %s", 1+rng.IntN(3), aromatic2),
		fmt.Sprintf("1 tsp %s", spice),
		fmt.Sprintf("½ tsp %s", spice2),
		fmt.Sprintf("%d%s %s", 200+50*rng.IntN(8), pick(rng, []string{"ml", "g"}), liquid),
		fmt.Sprintf("%d %s", 1+rng.IntN(3), veg.line),
		"salt and freshly ground black pepper",
	}
	serve := []string{fmt.Sprintf("a small bunch of %s, chopped", herb), fmt.Sprintf("%s, to serve", side)}
	if rng.IntN(2) == 0 {
		serve = append(serve, "1 lemon, cut into wedges")
	}
	steps := []string{
		fmt.Sprintf("Heat the %s in a %s over a medium heat.", fat, pan),
		fmt.Sprintf("Add the %s and cook, stirring now and then, for %d minutes until soft and golden.", firstWords(aromatic), 5+rng.IntN(6)),
		fmt.Sprintf("Stir in the %s and the %s and cook for 1 minute more, until fragrant.", spice, spice2),
		fmt.Sprintf("Add the %s and brown on all sides, about %d minutes.", strings.ToLower(prot.name), 4+rng.IntN(6)),
		fmt.Sprintf("Pour in the %s, bring to a simmer, cover and cook gently for %d minutes.", liquid, 10+5*rng.IntN(8)),
		fmt.Sprintf("Add the %s and cook until just tender, stirring once or twice.", strings.ToLower(veg.name)),
		fmt.Sprintf("Season to taste with salt and pepper, scatter over the %s and serve with %s.", herb, side),
	}
	d := dish{
		title: title,
		description: fmt.Sprintf("A %s %s %s that is on the table in under an hour. %s",
			pick(rng, adjectives), strings.ToLower(cuisine), strings.ToLower(typ), pick(rng, savouryNotes)),
		categories: []string{pick(rng, []string{"Dinner", "Dinner", "Lunch", "Main Course"}), cuisine},
	}
	if vegetarian[prot.name] {
		d.categories = append(d.categories, "Vegetarian")
	}
	switch typ {
	case "Soup", "Salad":
		d.categories = append(d.categories, typ)
	}
	if rng.IntN(4) == 0 {
		marinade := []string{fmt.Sprintf("2 tbsp %s", pick(rng, []string{"soy sauce", "yoghurt", "lime juice", "honey"})), fmt.Sprintf("1 tsp %s", pick(rng, spices))}
		d.ingredients = []dishSection{{"For the marinade", marinade}, {"For the " + strings.ToLower(typ), main}, {"To serve", serve}}
		d.steps = []dishSection{
			{"Marinate", []string{fmt.Sprintf("Mix the marinade ingredients in a bowl, add the %s and turn to coat. Leave for at least 30 minutes, or overnight in the fridge.", strings.ToLower(prot.name))}},
			{"Cook", steps},
		}
	} else {
		d.ingredients = []dishSection{{"", append(main, serve...)}}
		d.steps = []dishSection{{"", steps}}
	}
	return d
}

var savouryNotes = []string{
	"Leftovers keep in the fridge for three days and taste even better.",
	"Double the quantities and freeze half for another night.",
	"Swap the vegetables for whatever is in season.",
	"A favourite when friends come round.",
	"Serve it family-style straight from the pan.",
	"The sauce can be made a day ahead.",
}

func sweetDish(rng *rand.Rand) dish {
	flavour, flavour2, bake := pick(rng, sweets), pick(rng, sweets), pick(rng, bakes)
	title := flavour + " " + bake
	if rng.IntN(3) == 0 && flavour2 != flavour {
		title = flavour + " and " + flavour2 + " " + bake
	}
	temp := 160 + 10*rng.IntN(4)
	base := []string{
		fmt.Sprintf("%dg plain flour", 150+25*rng.IntN(8)),
		fmt.Sprintf("%dg caster sugar", 100+25*rng.IntN(6)),
		fmt.Sprintf("%dg unsalted butter, softened", 100+25*rng.IntN(6)),
		fmt.Sprintf("%d large eggs", 1+rng.IntN(4)),
		"1 tsp baking powder",
		"1 tsp vanilla extract",
		fmt.Sprintf("%dml whole milk", 50+25*rng.IntN(4)),
		flavourLine(flavour),
		"a pinch of salt",
	}
	steps := []string{
		fmt.Sprintf("Heat the oven to %d°C (%d°C fan) and line a tin with baking paper.", temp+20, temp),
		"Beat the butter and sugar together until pale and fluffy.",
		"Beat in the eggs one at a time, then the vanilla extract.",
		"Fold in the flour, baking powder and salt, then loosen with the milk.",
		fmt.Sprintf("Stir through the %s.", strings.ToLower(flavour)),
		fmt.Sprintf("Spoon into the tin and bake for %d–%d minutes until golden and a skewer comes out clean.", 20+5*rng.IntN(5), 30+5*rng.IntN(5)),
		"Leave to cool in the tin for 10 minutes before turning out onto a wire rack.",
	}
	d := dish{
		title:       title,
		description: fmt.Sprintf("A %s %s that everyone asks for. %s", pick(rng, adjectives), strings.ToLower(bake), pick(rng, sweetNotes)),
		categories:  []string{pick(rng, []string{"Dessert", "Baking", "Baking", "Snack"})},
	}
	if rng.IntN(3) == 0 {
		icing := []string{fmt.Sprintf("%dg icing sugar", 100+50*rng.IntN(4)), "2 tbsp lemon juice", flavourLine(flavour2)}
		d.ingredients = []dishSection{{"For the " + strings.ToLower(bake), base}, {"For the icing", icing}}
		d.steps = []dishSection{
			{"", steps},
			{"Ice", []string{"Mix the icing sugar with the lemon juice until smooth and thick.", fmt.Sprintf("Spread over the cooled %s and finish with the %s.", strings.ToLower(bake), strings.ToLower(flavour2))}},
		}
	} else {
		d.ingredients = []dishSection{{"", base}}
		d.steps = []dishSection{{"", steps}}
	}
	return d
}

var sweetNotes = []string{
	"Keeps for four days in an airtight tin.",
	"Best eaten warm with a spoonful of cream.",
	"Bake it the day before a party.",
	"Children love helping with this one.",
}

func flavourLine(f string) string {
	switch f {
	case "Chocolate":
		return "150g dark chocolate, chopped"
	case "Lemon", "Orange":
		return fmt.Sprintf("zest and juice of 2 %ss", strings.ToLower(f))
	case "Coffee":
		return "2 tbsp strong espresso, cooled"
	case "Salted Caramel":
		return "150g salted caramel sauce"
	case "Peanut Butter":
		return "100g smooth peanut butter"
	}
	return fmt.Sprintf("%dg %s", 100+50*((len(f)*7)%4), strings.ToLower(f))
}

func breakfastDish(rng *rand.Rand) dish {
	flavour, kind := pick(rng, sweets), pick(rng, breakfasts)
	return dish{
		title:       flavour + " " + kind,
		description: fmt.Sprintf("A %s breakfast you can make ahead on Sunday.", pick(rng, adjectives)),
		categories:  []string{pick(rng, []string{"Breakfast", "Brunch"})},
		ingredients: []dishSection{{"", []string{
			fmt.Sprintf("%dg rolled oats", 50+10*rng.IntN(6)),
			fmt.Sprintf("%dml milk or oat milk", 150+25*rng.IntN(4)),
			fmt.Sprintf("%d tbsp Greek yoghurt", 1+rng.IntN(3)),
			flavourLine(flavour),
			fmt.Sprintf("1 tbsp %s", pick(rng, []string{"honey", "maple syrup", "chia seeds", "flaked almonds"})),
		}}},
		steps: []dishSection{{"", []string{
			"Mix the oats, milk and yoghurt in a bowl or jar.",
			fmt.Sprintf("Stir in half the %s and the honey.", strings.ToLower(flavour)),
			"Cover and chill overnight, or cook gently for 5 minutes if you want it warm.",
			fmt.Sprintf("Top with the rest of the %s to serve.", strings.ToLower(flavour)),
		}}},
	}
}

// firstWords returns an ingredient line's name without its preparation
// note: "onion, finely chopped" → "onion".
func firstWords(line string) string {
	name, _, _ := strings.Cut(line, ",")
	return name
}
