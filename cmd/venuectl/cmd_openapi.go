package main

import (
	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/gen/openapi"
)

func newOpenAPICmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:         "openapi",
		Short:       "Print the OpenAPI document of the REST API",
		Args:        cobra.NoArgs,
		Annotations: map[string]string{annotationDB: dbNone},
		RunE: func(*cobra.Command, []string) error {
			_, err := a.stdout.Write(openapi.JSON)
			return err
		},
	}
}
