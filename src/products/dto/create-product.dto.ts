import { OptionalText, OptionalUrl, RequiredText } from '../../common/validation';

export const NAME_MAX = 200;
export const DESC_MAX = 10_000;
export const OWNER_MAX = 100;

export class CreateProductDto {
  @RequiredText({ description: 'Name of the product.', example: 'Acme Notes', max: NAME_MAX, notBlank: true })
  name: string;

  @OptionalText({ description: 'Detailed description of the product.', example: 'A note-taking app for research teams.', max: DESC_MAX })
  desc?: string | null;

  @OptionalText({ description: 'Owning organization. At least one of orgID and userID is required.', example: 'org_acme', max: OWNER_MAX })
  orgID?: string | null;

  @OptionalText({ description: 'Owning user. At least one of orgID and userID is required.', example: 'user_42', max: OWNER_MAX })
  userID?: string | null;

  @OptionalUrl('Link to the product page, where one exists.', 'https://acme.example/notes')
  url?: string | null;

  @OptionalUrl('URL of an image of the product.', 'https://acme.example/notes.png')
  imageLink?: string | null;
}
