package cmd

import (
	"bytes"
	"context"
	"os"
	"strings"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
	"keel.dev/cli/internal/output"
)

func (a *app) cloudAccountsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "cloud-accounts",
		Aliases: []string{"cloud-account", "accounts"},
		Short:   "AWS accounts Keel may act in, through a cross-account role",
		Example: `  keel cloud-accounts template > keel-role.yaml   # deploy it with CloudFormation, then:
  keel cloud-accounts register --name prod --aws-account-id 123456789012 \
    --role-arn arn:aws:iam::123456789012:role/KeelControlPlane --region us-east-1`,
	}
	cmd.AddCommand(a.cloudAccountsList(), a.cloudAccountsGet(), a.cloudAccountsRegister(), a.cloudAccountsVerify(),
		a.cloudAccountsDelete(), a.cloudAccountsTemplate(), a.cloudAccountsNetworks())
	return cmd
}

// cloudAccount finds a cloud account by id or by name.
func (a *app) cloudAccount(ctx context.Context, c *api.ClientWithResponses, ref string) (*api.GetCloudAccountResponse, error) {
	id, err := uuid.Parse(ref)
	if err != nil {
		_, accounts, err := listPages(paging{}, a.fetchCloudAccounts(ctx, c))
		if err != nil {
			return nil, err
		}
		found := false
		for _, acc := range accounts {
			if string(acc.Name) == ref {
				id, found = acc.Id, true
			}
		}
		if !found {
			return nil, notFound("cloud account", ref, "keel cloud-accounts list")
		}
	}
	return c.GetCloudAccountWithResponse(ctx, id, nil)
}

func (a *app) fetchCloudAccounts(ctx context.Context, c *api.ClientWithResponses) fetchPage[api.CloudAccount] {
	return func(cursor *string, limit int) ([]byte, []api.CloudAccount, *string, error) {
		r, err := c.ListCloudAccountsWithResponse(ctx, &api.ListCloudAccountsParams{Limit: &limit, Cursor: cursor})
		if err != nil {
			return nil, nil, nil, err
		}
		return r.Body, r.JSON200.Items, r.JSON200.NextCursor, nil
	}
}

func (a *app) cloudAccountsList() *cobra.Command {
	var page paging
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List cloud accounts, newest first",
		Example: "  keel cloud-accounts list\n  keel cloud-accounts list -o json | jq -r '.items[] | [.name, .status] | @tsv'",
		Args:    cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			body, accounts, err := listPages(page, a.fetchCloudAccounts(cmd.Context(), c))
			if err != nil {
				return err
			}
			return a.print(body, func(t *output.Table) {
				t.Row("NAME", "STATUS", "AWS ACCOUNT", "REGIONS", "ID", "CREATED")
				for _, acc := range accounts {
					t.Row(acc.Name, acc.Status, acc.AwsAccountId, joinRegions(acc.Regions), acc.Id, acc.CreatedAt)
				}
			})
		}),
	}
	page.register(cmd)
	return cmd
}

func joinRegions(regions []api.AwsRegion) string {
	return strings.Join(regions, ",")
}

func cloudAccountDetail(acc *api.CloudAccount) func(*output.Table) {
	return func(t *output.Table) {
		t.Row("NAME", acc.Name)
		t.Row("ID", acc.Id)
		t.Row("STATUS", acc.Status)
		t.Row("AWS ACCOUNT", acc.AwsAccountId)
		t.Row("ROLE", acc.RoleArn)
		t.Row("EXTERNAL ID", acc.ExternalId)
		t.Row("REGIONS", joinRegions(acc.Regions))
		t.Row("CHECKED", acc.Verification.CheckedAt)
		t.Row("MISSING ACTIONS", strings.Join(acc.Verification.MissingActions, ", "))
		t.Row("MESSAGE", acc.Verification.Message)
		t.Row("CREATED", acc.CreatedAt)
	}
}

func (a *app) cloudAccountsGet() *cobra.Command {
	return &cobra.Command{
		Use:     "get NAME|ID",
		Short:   "Show a cloud account and its verification",
		Example: "  keel cloud-accounts get prod",
		Args:    cobra.ExactArgs(1),
		RunE: a.withCloudAccount(func(_ *cobra.Command, _ *api.ClientWithResponses, acc *api.GetCloudAccountResponse) error {
			return a.print(acc.Body, cloudAccountDetail(acc.JSON200))
		}),
	}
}

func (a *app) cloudAccountsRegister() *cobra.Command {
	var file, name, awsAccount, role, key string
	var regions []string
	cmd := &cobra.Command{
		Use:   "register",
		Short: "Register a cross-account role and verify it at once",
		Long: `Registers an AWS account's cross-account role (deployed from 'keel cloud-accounts template') and
verifies it: Keel assumes it and checks that it allows every action the provisioner calls. The answer's
status is VERIFIED or VERIFICATION_FAILED with the missing actions.`,
		Example: `  keel cloud-accounts register --name prod --aws-account-id 123456789012 \
    --role-arn arn:aws:iam::123456789012:role/KeelControlPlane --region us-east-1
  keel cloud-accounts register -f account.yaml`,
		Args: cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			body, err := a.requestBody(cmd, file, []field{
				{"name", "name", func() any { return name }},
				{"aws-account-id", "awsAccountId", func() any { return awsAccount }},
				{"role-arn", "roleArn", func() any { return role }},
				{"region", "regions", func() any { return regions }},
			}, "give the account with -f FILE or --name, --aws-account-id, --role-arn and --region")
			if err != nil {
				return err
			}
			r, err := c.RegisterCloudAccountWithBodyWithResponse(cmd.Context(),
				&api.RegisterCloudAccountParams{IdempotencyKey: client.IdempotencyKey(key)}, "application/json", bytes.NewReader(body))
			if err != nil {
				return err
			}
			return a.print(r.Body, cloudAccountDetail(r.JSON201))
		}),
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "a CloudAccountRegistration document, YAML or JSON (- for stdin)")
	cmd.Flags().StringVar(&name, "name", "", "a name for the account")
	cmd.Flags().StringVar(&awsAccount, "aws-account-id", "", "the AWS account id (12 digits)")
	cmd.Flags().StringVar(&role, "role-arn", "", "the cross-account role's ARN")
	cmd.Flags().StringSliceVar(&regions, "region", nil, "a region instances may use (repeat for several)")
	idempotencyFlag(cmd, &key)
	return cmd
}

func (a *app) cloudAccountsVerify() *cobra.Command {
	var key string
	cmd := &cobra.Command{
		Use:     "verify NAME|ID",
		Short:   "Verify a cloud account's role again, after fixing it",
		Example: "  keel cloud-accounts verify prod",
		Args:    cobra.ExactArgs(1),
		RunE: a.withCloudAccount(func(cmd *cobra.Command, c *api.ClientWithResponses, acc *api.GetCloudAccountResponse) error {
			r, err := c.VerifyCloudAccountWithResponse(cmd.Context(), acc.JSON200.Id,
				&api.VerifyCloudAccountParams{IdempotencyKey: client.IdempotencyKey(key)})
			if err != nil {
				return err
			}
			return a.print(r.Body, cloudAccountDetail(r.JSON200))
		}),
	}
	idempotencyFlag(cmd, &key)
	return cmd
}

func (a *app) cloudAccountsDelete() *cobra.Command {
	var key string
	var yes bool
	cmd := &cobra.Command{
		Use:   "delete NAME|ID",
		Short: "Forget a cloud account (its role stays in AWS)",
		Long: `Forgets the cloud account; nothing changes in the AWS account. Refused while an instance uses it.
Asks for the name to be typed unless --yes.`,
		Example: "  keel cloud-accounts delete staging --yes",
		Args:    cobra.ExactArgs(1),
		RunE: a.withCloudAccount(func(cmd *cobra.Command, c *api.ClientWithResponses, acc *api.GetCloudAccountResponse) error {
			if !yes {
				if err := a.confirm("cloud account", string(acc.JSON200.Name)); err != nil {
					return err
				}
			}
			if _, err := c.DeleteCloudAccountWithResponse(cmd.Context(), acc.JSON200.Id,
				&api.DeleteCloudAccountParams{IdempotencyKey: client.IdempotencyKey(key)}); err != nil {
				return err
			}
			return nil
		}),
	}
	idempotencyFlag(cmd, &key)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	return cmd
}

func (a *app) cloudAccountsTemplate() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "template",
		Short: "Print the CloudFormation template that creates the cross-account role",
		Long: `The template carries your organization's external id. Deploy it in the AWS account (CloudFormation,
capability CAPABILITY_NAMED_IAM), then register its RoleArn output.`,
		Example: `  keel cloud-accounts template > keel-role.yaml
  aws cloudformation deploy --template-file keel-role.yaml --stack-name keel --capabilities CAPABILITY_NAMED_IAM`,
		Args: cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			r, err := c.GetOnboardingTemplateWithResponse(cmd.Context(), nil)
			if err != nil {
				return err
			}
			if file != "" {
				return os.WriteFile(file, r.Body, 0o644)
			}
			_, err = a.out.Write(r.Body)
			return err
		}),
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "write the template to this file instead of stdout")
	return cmd
}

func (a *app) cloudAccountsNetworks() *cobra.Command {
	var region string
	cmd := &cobra.Command{
		Use:     "networks NAME|ID --region REGION",
		Short:   "List the VPCs and subnets of a cloud account, read through its role",
		Example: "  keel cloud-accounts networks prod --region us-east-1",
		Args:    cobra.ExactArgs(1),
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			if region == "" {
				return usagef("--region is required")
			}
			acc, err := a.cloudAccount(cmd.Context(), c, args[0])
			if err != nil {
				return err
			}
			r, err := c.ListCloudAccountNetworksWithResponse(cmd.Context(), acc.JSON200.Id, &api.ListCloudAccountNetworksParams{Region: region})
			if err != nil {
				return err
			}
			return a.print(r.Body, func(t *output.Table) {
				t.Row("VPC", "VPC NAME", "SUBNET", "ZONE", "CIDR", "SUBNET NAME")
				for _, v := range r.JSON200.Vpcs {
					for _, s := range v.Subnets {
						t.Row(v.VpcId, v.Name, s.SubnetId, s.AvailabilityZone, s.CidrBlock, s.Name)
					}
				}
			})
		}),
	}
	cmd.Flags().StringVar(&region, "region", "", "one of the account's regions")
	return cmd
}
