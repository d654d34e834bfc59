import { boot } from '../../kit/boot.tsx'
import { SocialCardTool } from '../generate/social-card.tsx'

boot(() => <SocialCardTool />)
