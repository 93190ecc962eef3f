package cmd

import (
	"strings"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
	"keel.dev/cli/internal/output"
)

func (a *app) aclsCommand() *cobra.Command {
	var scope instanceScope
	cmd := &cobra.Command{
		Use:     "acls",
		Aliases: []string{"acl"},
		Short:   "An instance's Kafka ACLs, applied to its brokers by the broker agent",
		Long: `Kafka ACLs say what each principal may do. The brokers refuse everything no ACL allows, so a new user needs
ACLs before its clients can do anything. An ACL deleted behind Keel's back with Kafka's own tools is put
back (its RESTORED time shows when).`,
		Example: `  keel acls list --instance orders
  keel acls create --instance orders --principal User:orders-service --resource-type topic --resource-name orders --operation read`,
	}
	scope.register(cmd)
	cmd.AddCommand(a.aclsList(&scope), a.aclsGet(&scope), a.aclsCreate(&scope), a.aclsDelete(&scope))
	return cmd
}

func aclDetail(acl *api.KafkaAcl) func(*output.Table) {
	return func(t *output.Table) {
		t.Row("ID", acl.Id)
		t.Row("PRINCIPAL", acl.Principal)
		t.Row("PERMISSION", acl.Permission)
		t.Row("OPERATION", acl.Operation)
		t.Row("RESOURCE TYPE", acl.ResourceType)
		t.Row("RESOURCE NAME", acl.ResourceName)
		t.Row("PATTERN", acl.PatternType)
		t.Row("HOST", acl.Host)
		t.Row("STATUS", acl.Status)
		t.Row("MESSAGE", acl.StatusMessage)
		t.Row("RESTORED", acl.RestoredAt)
		t.Row("CREATED", acl.CreatedAt)
	}
}

func (a *app) aclsList(scope *instanceScope) *cobra.Command {
	var principal string
	var page paging
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the instance's ACLs, oldest first",
		Example: "  keel acls list --instance orders\n  keel acls list --instance orders --principal User:orders-service",
		Args:    cobra.NoArgs,
		RunE: scope.run(a, func(cmd *cobra.Command, _ []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			body, acls, err := listPages(page, func(cursor *string, limit int) ([]byte, []api.KafkaAcl, *string, error) {
				r, err := c.ListKafkaAclsWithResponse(cmd.Context(), instance,
					&api.ListKafkaAclsParams{Limit: &limit, Cursor: cursor, Principal: optional(principal)})
				if err != nil {
					return nil, nil, nil, err
				}
				return r.Body, r.JSON200.Items, r.JSON200.NextCursor, nil
			})
			if err != nil {
				return err
			}
			return a.print(body, func(t *output.Table) {
				t.Row("ID", "PRINCIPAL", "PERMISSION", "OPERATION", "RESOURCE", "PATTERN", "HOST", "STATUS")
				for _, acl := range acls {
					t.Row(acl.Id, acl.Principal, acl.Permission, acl.Operation, string(acl.ResourceType)+":"+acl.ResourceName,
						acl.PatternType, acl.Host, acl.Status)
				}
			})
		}),
	}
	cmd.Flags().StringVar(&principal, "principal", "", "only the ACLs of this principal, e.g. User:orders-service")
	page.register(cmd)
	return cmd
}

// aclID parses an ACL's id argument.
func aclID(arg string) (uuid.UUID, error) {
	id, err := uuid.Parse(arg)
	if err != nil {
		return id, usagef("%q is not an ACL id: 'keel acls list' shows them", arg)
	}
	return id, nil
}

func (a *app) aclsGet(scope *instanceScope) *cobra.Command {
	return &cobra.Command{
		Use:     "get ID",
		Short:   "Show an ACL and where the broker agent is with it",
		Example: "  keel acls get 7c0e2a14-5b3d-4f6e-9a8b-1c2d3e4f5a6b --instance orders",
		Args:    cobra.ExactArgs(1),
		RunE: scope.run(a, func(cmd *cobra.Command, args []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			id, err := aclID(args[0])
			if err != nil {
				return err
			}
			r, err := c.GetKafkaAclWithResponse(cmd.Context(), instance, id, nil)
			if err != nil {
				return err
			}
			return a.print(r.Body, aclDetail(r.JSON200))
		}),
	}
}

// enumFlag is the API's word for a flag's value: upper case, with - for _ (transactional-id is
// TRANSACTIONAL_ID); a word the API does not take is a usage error naming those it does.
func enumFlag[T interface {
	~string
	Valid() bool
}](flag, value string, words string) (T, error) {
	v := T(strings.ToUpper(strings.ReplaceAll(value, "-", "_")))
	if !v.Valid() {
		return v, usagef("--%s %q: use %s", flag, value, words)
	}
	return v, nil
}

// aclFlags are the flags of acls create, one per field of the binding.
type aclFlags struct {
	principal, resourceType, resourceName, pattern, operation, permission, host string
}

func (f *aclFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.principal, "principal", "", "User:NAME (a SCRAM user) or User:* (everyone authenticated)")
	fl.StringVar(&f.resourceType, "resource-type", "", "topic, group, cluster or transactional-id")
	fl.StringVar(&f.resourceName, "resource-name", "", "the resource's name, a prefix (--pattern prefixed), * for all of the type, kafka-cluster for cluster")
	fl.StringVar(&f.pattern, "pattern", "literal", "literal or prefixed")
	fl.StringVar(&f.operation, "operation", "", "all, read, write, create, delete, alter, describe, cluster-action, describe-configs, alter-configs or idempotent-write")
	fl.StringVar(&f.permission, "permission", "allow", "allow or deny")
	fl.StringVar(&f.host, "host", "", "the IP address the principal connects from (default: any host, *)")
	for _, required := range []string{"principal", "resource-type", "resource-name", "operation"} {
		_ = cmd.MarkFlagRequired(required)
	}
}

// creation is the KafkaAclCreation the flags ask for.
func (f *aclFlags) creation() (api.KafkaAclCreation, error) {
	body := api.KafkaAclCreation{Principal: f.principal, ResourceName: f.resourceName, Host: optional(f.host)}
	var err error
	if body.ResourceType, err = enumFlag[api.KafkaAclCreationResourceType]("resource-type", f.resourceType,
		"topic, group, cluster or transactional-id"); err != nil {
		return body, err
	}
	if body.PatternType, err = enumFlag[api.KafkaAclCreationPatternType]("pattern", f.pattern, "literal or prefixed"); err != nil {
		return body, err
	}
	if body.Operation, err = enumFlag[api.KafkaAclCreationOperation]("operation", f.operation,
		"all, read, write, create, delete, alter, describe, cluster-action, describe-configs, alter-configs or idempotent-write"); err != nil {
		return body, err
	}
	body.Permission, err = enumFlag[api.KafkaAclCreationPermission]("permission", f.permission, "allow or deny")
	return body, err
}

func (a *app) aclsCreate(scope *instanceScope) *cobra.Command {
	var flags aclFlags
	var body api.KafkaAclCreation
	var key string
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Allow (or deny) a principal an operation on a resource",
		Long: `Records an ACL; the broker agent creates the binding on the brokers within seconds (CREATING, then ACTIVE).
--pattern defaults to literal, --permission to allow and --host to any host.`,
		Example: `  keel acls create --instance orders --principal User:orders-service --resource-type topic --resource-name orders --operation write
  keel acls create --instance orders --principal User:orders-service --resource-type group --resource-name orders- --pattern prefixed --operation read`,
		Args: cobra.NoArgs,
		RunE: checkFirst(func() (err error) {
			body, err = flags.creation()
			return err
		}, scope.run(a, func(cmd *cobra.Command, _ []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			r, err := c.CreateKafkaAclWithResponse(cmd.Context(), instance, &api.CreateKafkaAclParams{IdempotencyKey: client.IdempotencyKey(key)}, body)
			if err != nil {
				return err
			}
			return a.print(r.Body, aclDetail(r.JSON201))
		})),
	}
	flags.register(cmd)
	idempotencyFlag(cmd, &key)
	return cmd
}

func (a *app) aclsDelete(scope *instanceScope) *cobra.Command {
	var key string
	var yes bool
	cmd := &cobra.Command{
		Use:   "delete ID",
		Short: "Delete an ACL: what it allowed is refused within seconds",
		Long: `Asks for the ACL's id to be typed before deleting it, unless --yes (required without a terminal). The ACL is
DELETING until the broker agent has deleted the binding on the brokers.`,
		Example: "  keel acls delete 7c0e2a14-5b3d-4f6e-9a8b-1c2d3e4f5a6b --instance orders --yes",
		Args:    cobra.ExactArgs(1),
		RunE: scope.run(a, func(cmd *cobra.Command, args []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			id, err := aclID(args[0])
			if err != nil {
				return err
			}
			if !yes {
				if err := a.confirmTyped("ACL", id.String(), "id"); err != nil {
					return err
				}
			}
			r, err := c.DeleteKafkaAclWithResponse(cmd.Context(), instance, id, &api.DeleteKafkaAclParams{IdempotencyKey: client.IdempotencyKey(key)})
			if err != nil {
				return err
			}
			return a.print(r.Body, aclDetail(r.JSON202))
		}),
	}
	idempotencyFlag(cmd, &key)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	return cmd
}
