package appointments

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/providerhours"
	"github.com/venueplatform/venue/ent/serviceprovider"
)

// MaxDirectory bounds the staff directory.
const MaxDirectory = 1000

// DirectoryEntry is one person of the staff directory: an instructor of the
// venue (who teaches classes and, when assigned to services, treats
// clients), with how many active service assignments they hold and whether
// they have working hours.
type DirectoryEntry struct {
	Staff           *ent.Instructor
	Services        int
	HasWorkingHours bool
}

// Directory lists the viewer's venue's staff by name (first, last, id); with
// active set, only those whose active flag equals it. The bool reports that
// MaxDirectory cut the list short.
func Directory(ctx context.Context, c *ent.Client, active *bool) ([]DirectoryEntry, bool, error) {
	q := c.Instructor.Query()
	if active != nil {
		q.Where(instructor.Active(*active))
	}
	people, err := q.Order(ent.Asc(instructor.FieldFirstName), ent.Asc(instructor.FieldLastName), ent.Asc(instructor.FieldID)).
		Limit(MaxDirectory + 1).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("appointments: directory: %w", err)
	}
	truncated := len(people) > MaxDirectory
	if truncated {
		people = people[:MaxDirectory]
	}
	ids := make([]uuid.UUID, len(people))
	for i, p := range people {
		ids[i] = p.ID
	}
	services := map[uuid.UUID]int{}
	as, err := c.ServiceProvider.Query().Where(serviceprovider.ProviderIDIn(ids...), serviceprovider.IsActive(true)).
		Select(serviceprovider.FieldProviderID).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("appointments: directory services: %w", err)
	}
	for _, a := range as {
		services[a.ProviderID]++
	}
	hours := map[uuid.UUID]bool{}
	hs, err := c.ProviderHours.Query().Where(providerhours.ProviderIDIn(ids...)).
		Select(providerhours.FieldProviderID).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("appointments: directory hours: %w", err)
	}
	for _, h := range hs {
		hours[h.ProviderID] = true
	}
	out := make([]DirectoryEntry, len(people))
	for i, p := range people {
		out[i] = DirectoryEntry{Staff: p, Services: services[p.ID], HasWorkingHours: hours[p.ID]}
	}
	return out, truncated, nil
}
